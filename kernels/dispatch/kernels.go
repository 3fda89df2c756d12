package dispatch

import "slices"

// knownKernels lists every kernel a tunelab package plans (calls Plan
// for), so that a TUNELAB_DISPATCH entry naming another (a typo) is
// warned about in any binary, whichever packages it links. A test in
// kernels/all checks the list against the plans of every family.
var knownKernels = []string{
	"aes128.dec", "aes128.enc", "aes192.dec", "aes192.enc", "aes256.dec", "aes256.enc",
	"keccak.x1", "keccak.x2", "keccak.x4", "keccak.x8",
	"mldsa.invntt", "mldsa.mulntt", "mldsa.ntt",
	"mlkem.invntt", "mlkem.mulntt", "mlkem.ntt",
	"poly1305", "sha3.256", "shake128.many", "shake256.many",
}

// KnownKernel reports whether kernel is one a tunelab package plans.
func KnownKernel(kernel string) bool { return slices.Contains(knownKernels, kernel) }

// KnownKernels returns the kernels tunelab packages plan, sorted.
func KnownKernels() []string { return slices.Clone(knownKernels) }
