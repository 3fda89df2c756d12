// Package leaks holds planted timing leaks, lab-only fixtures generated
// with avo by variants/ctleaks like every variant: a table lookup indexed
// by a secret byte, an early-exit compare, divisions by secret divisors,
// and a constant-time compare as the clean control. `tunelab ct
// --selftest` requires the static check (their findings are in
// lab/ct/zstatic_leaks.go) and the dynamic check to flag each leak.
package leaks

//go:generate go run ../../../variants/ctleaks -out leaks_amd64.s -stubs zstubs_amd64.go -pkg leaks -ct ../zstatic_leaks.go
