//go:build !purego

package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestRoundGeneratedFeatures checks the declared CPU features of every
// rounding and row-product variant against avo's requirements.
func TestRoundGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "round_amd64.s", asmtest.Family("round"), asmtest.OwnSymbol)
	asmtest.CheckFeatures(t, "matvec_amd64.s", []string{"mldsa.matvec"}, asmtest.OwnSymbol)
}

// TestRoundProductionLinksTable checks that the rounding and row-product
// production tables hold every variant the compiled dispatch table names.
func TestRoundProductionLinksTable(t *testing.T) {
	asmtest.CheckProduction(t, map[string][]string{
		"mldsa.lowbits": implNames(prodAsmLowBits), "mldsa.makehint": implNames(prodAsmMakeHint),
		"mldsa.response": implNames(prodAsmResponse), "mldsa.w1pack4": implNames(prodAsmW1Pack4),
		"mldsa.power2round": implNames(prodAsmPower2Round), "mldsa.matvec": implNames(prodAsmMatVec),
	})
}

func implNames[F any](impls []variant.Impl[F]) []string {
	var out []string
	for _, im := range impls {
		out = append(out, im.Name)
	}
	return out
}
