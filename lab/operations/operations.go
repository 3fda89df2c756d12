// Package operations registers the whole-operation sweep kernels of the
// lab: ML-KEM-512/768/1024 key generation, encapsulation and
// decapsulation (mlkem768.keygen, ...) and ML-DSA-44/65/87 key
// generation, signing and verification (mldsa65.sign, ...). Each runs
// the family's public API, what a user runs, and its variants compose the
// kernel choices under it (lab/compose): the Keccak way count of the
// many-stream SHAKEs × the NTT tier × the tier of the scheme's other
// coefficient kernels, plus the generic reference. Production links none
// of it: the families offer only their lab hooks (sha3.UseWays and the
// registry records' Use), and their packages do not import this one.
package operations

import (
	"slices"
	"strings"
	"sync"

	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/compose"
)

var once sync.Once

// RegisterVariants registers the families' variants (mlkem's, mldsa's
// and sha3's RegisterVariants, idempotent), then, once, every operation
// kernel and its compositions. lab/all calls it at init, and lab/baselines
// before it adds the external references of the same kernels.
func RegisterVariants() {
	sha3.RegisterVariants()
	mlkem.RegisterVariants()
	mldsa.RegisterVariants()
	once.Do(func() {
		register("mlkem", kemOperations())
		register("mldsa", dsaOperations())
	})
}

// register registers ops and their compositions over the kernels of
// scheme ("mlkem"): the ways knob, the ntt knob (its NTT, InvNTT and
// MulNTT) and the poly knob (every other registered kernel of the
// scheme: samplers, packings, rounding, matrix-vector products).
func register(scheme string, ops []compose.Op) {
	compose.RegisterKernels(ops...)
	ntt := []string{scheme + ".ntt", scheme + ".invntt", scheme + ".mulntt"}
	compose.Register(ops, compose.WaysKnob(sha3.Ways(), sha3.UseWays),
		compose.TierKnob("ntt", ntt...), compose.TierKnob("poly", coefficientKernels(scheme, ntt)...))
}

// coefficientKernels returns the registered kernels of scheme ("mlkem.*")
// that are neither operations nor one of except.
func coefficientKernels(scheme string, except []string) []string {
	var names []string
	for _, k := range variant.Kernels() {
		if strings.HasPrefix(k.Name, scheme+".") && !k.Operation && !slices.Contains(except, k.Name) {
			names = append(names, k.Name)
		}
	}
	return names
}
