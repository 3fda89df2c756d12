//go:build !purego

package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestMatVecGeneratedFeatures checks the declared CPU features of every
// mulcache and row-product variant against avo's requirements.
func TestMatVecGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "matvec_amd64.s", []string{"mlkem.mulcache", "mlkem.matvec"}, asmtest.OwnSymbol)
}

// TestMatVecProductionLinksTable checks that the production tables hold
// every variant the compiled dispatch table names.
func TestMatVecProductionLinksTable(t *testing.T) {
	asmtest.CheckProduction(t, map[string][]string{
		"mlkem.mulcache": implNames(prodAsmMulCache), "mlkem.matvec": implNames(prodAsmMatVec),
	})
}

func implNames[F any](impls []variant.Impl[F]) []string {
	var out []string
	for _, im := range impls {
		out = append(out, im.Name)
	}
	return out
}
