//go:build !purego

package keccak

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/asmtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "keccak_amd64.s", asmtest.Family("keccak"), asmtest.OwnSymbol)
}

// TestProductionLinksTable checks that the production table links every
// variant the compiled dispatch table names, and that production, choosing
// among it, selects what the lab selects among every variant (unless
// TUNELAB_DISPATCH forces a kernel).
func TestProductionLinksTable(t *testing.T) {
	prod := prodImpls()
	names := map[string][]string{}
	for _, nr := range widths {
		names[kernelName(nr)] = []string{}
		for _, m := range prod[nr] {
			names[kernelName(nr)] = append(names[kernelName(nr)], m.Name)
		}
	}
	asmtest.CheckProduction(t, names)
	for _, nr := range widths {
		if dispatch.Overrides()[kernelName(nr)] != "" {
			continue
		}
		got := choose(nr, prod[nr]).Name
		selectVariant(nr) // choose recorded production's plan; record the lab's again
		if got != selected[nr] {
			t.Errorf("%s: production selects %q, the lab %q", kernelName(nr), got, selected[nr])
		}
	}
}
