//go:build !amd64 || !gc

package cpu

// rawSignature reports that no x86 processor signature is available.
func rawSignature() (uint32, bool) { return 0, false }
