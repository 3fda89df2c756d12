//go:build !purego

package poly1305

import (
	"github.com/tunelab/tunelab/internal/poly1305core"
	"github.com/tunelab/tunelab/kernels/variant"
)

//go:generate go run ../../variants/poly1305 -out poly1305_amd64.s -stubs zstubs_amd64.go -pkg poly1305 -table zvariants_amd64.go -prod zprod_amd64.go -lab ../../lab/variants/poly1305 -ct ../../lab/ct/zstatic_poly1305.go -bounds ../../lab/bounds/zstatic_poly1305.go

// An asmVariant says how to call one generated variant: the Fn of its
// record in zprod_amd64.go (the production set) or in the lab table of
// lab/variants/poly1305 (the variants production does not link). The
// record, its power-table cache and the helpers of the generated wrappers
// are in internal/poly1305core, which both packages share.
type asmVariant = poly1305core.Variant

// powCache keeps a MAC's power table between writes.
type powCache = poly1305core.PowCache

// prodImpls returns the production set, in generation order.
func prodImpls() []variant.Impl[*asmVariant] {
	for _, r := range prodVariants {
		r.Fn.Prepare(false)
	}
	return prodVariants
}

// labImpls returns every generated variant in generation order (the lab
// table lab/variants/poly1305 offers, with prodVariants' records for the
// variants production links), those the production set lacks marked lab:
// they run through poly1305core.Lab, which that package's init sets.
func labImpls() []variant.Impl[*asmVariant] {
	all := labVariants()
	for _, r := range all {
		if r.Fn != nil {
			r.Fn.Prepare(variant.Find(prodVariants, r.Name) == nil)
		}
	}
	return all
}

// labSum, labBlocks and labRun run lab variant v through the generated
// wrappers of lab/variants/poly1305, which its init hands over in
// poly1305core.Lab: production binaries, which do not import that
// package, link none of it. Their pointer arguments escape to the heap,
// as those of every call through a func value do; the public API reaches
// them only through sumCopy and blocksCopy.
func labSum(v *asmVariant, out *[16]byte, m []byte, key *[32]byte) {
	poly1305core.Lab.Sum(v, out, m, key)
}

func labBlocks(v *asmVariant, st *state, m []byte, pc *powCache) {
	poly1305core.Lab.Blocks(v, st, m, pc)
}

func labRun(v *asmVariant, n int, out *[16]byte, m []byte, key *[32]byte) {
	poly1305core.Lab.Run(v, n, out, m, key)
}
