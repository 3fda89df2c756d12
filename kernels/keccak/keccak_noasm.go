//go:build !amd64 || purego

package keccak

// asmImpls is empty without assembly: only the generic code runs.
var asmImpls []impl
