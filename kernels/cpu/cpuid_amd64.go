//go:build amd64 && gc

package cpu

// cpuidLeaf1EAX returns EAX of CPUID leaf 1, the processor signature.
// Implemented in cpuid_amd64.s.
func cpuidLeaf1EAX() uint32

// rawSignature returns the processor signature and true.
func rawSignature() (uint32, bool) { return cpuidLeaf1EAX(), true }
