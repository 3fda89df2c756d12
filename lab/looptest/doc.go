// Package looptest holds generated loops at known placements, for testing
// package asmmap and the lab's tools (lab/mca) against a real binary.
package looptest

//go:generate go run ../../variants/looptest -out loops_amd64.s -stubs zstubs_amd64.go -pkg looptest
