//go:build !purego

package polysample

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "sample_amd64.s", asmtest.Family("sample"), asmtest.OwnSymbol)
	asmtest.CheckFeatures(t, "cbd_amd64.s", asmtest.Family("cbd"), asmtest.OwnSymbol)
}

// TestProductionLinksTable checks that the production tables hold every
// variant the compiled dispatch table names (else regenerate: go
// generate ./kernels/...).
func TestProductionLinksTable(t *testing.T) {
	asmtest.CheckProduction(t, map[string][]string{
		"mlkem.rejntt": names(prodAsmRejNTT12), "mldsa.rejntt": names(prodAsmRejNTT23), "mldsa.rejeta": names(prodAsmRejEta),
		"mlkem.cbd2": names(prodAsmCBD2), "mlkem.cbd3": names(prodAsmCBD3), "mldsa.expandmask": names(prodAsmExpandMask),
	})
}

func names[F any](impls []variant.Impl[F]) []string {
	var out []string
	for _, im := range impls {
		out = append(out, im.Name)
	}
	return out
}
