//go:build !purego

package polypack

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "pack_amd64.s", asmtest.Family("pack"), asmtest.OwnSymbol)
}

// TestProductionLinksTable checks that the production tables hold every
// variant the compiled dispatch table names (else regenerate: go
// generate ./kernels/...).
func TestProductionLinksTable(t *testing.T) {
	asmtest.CheckProduction(t, map[string][]string{
		"mlkem.encode12": names(prodAsmEncode12), "mlkem.decode12": names(prodAsmDecode12),
		"mlkem.compress": names(prodAsmCompress), "mlkem.decompress": names(prodAsmDecompress),
		"mldsa.pack": names(prodAsmPack), "mldsa.unpack": names(prodAsmUnpack),
	})
}

func names[F any](impls []variant.Impl[F]) []string {
	var out []string
	for _, im := range impls {
		out = append(out, im.Name)
	}
	return out
}
