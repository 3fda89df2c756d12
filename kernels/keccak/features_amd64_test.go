//go:build !purego

package keccak

import (
	"slices"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly:
// the permutations and, checked on their own so that none can go
// unchecked, the fused absorb functions of sha3.256.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "keccak_amd64.s", asmtest.Family("keccak"), asmtest.OwnSymbol)
	asmtest.CheckFeatures(t, "keccak_amd64.s", []string{sha3Kernel}, asmtest.OwnSymbol)
}

// TestProductionLinksTable checks that the production tables link every
// variant the compiled dispatch table names (for sha3.256 also every
// absorb variant named like a keccak.x1 choice, which AbsorbBlocks falls
// back to), and that production, choosing among them, selects what the
// lab selects among every variant (unless TUNELAB_DISPATCH forces a
// kernel).
func TestProductionLinksTable(t *testing.T) {
	prod := prodTables()
	names := map[string][]string{}
	for _, nr := range widths {
		names[kernelName(nr)] = []string{}
		for _, m := range prod.erased(nr) {
			names[kernelName(nr)] = append(names[kernelName(nr)], m.Name)
		}
	}
	for _, m := range prodAbsorbImpls() {
		names[sha3Kernel] = append(names[sha3Kernel], m.Name)
	}
	asmtest.CheckProduction(t, names)
	checkAbsorbFollowsX1(t, names[sha3Kernel])
	for _, nr := range widths {
		if dispatch.Overrides()[kernelName(nr)] != "" {
			continue
		}
		got := choose(nr, prod.erased(nr)).Name
		replanOf(nr) // choose recorded production's plan; record the lab's again
		if got != selectedOf(nr) {
			t.Errorf("%s: production selects %q, the lab %q", kernelName(nr), got, selectedOf(nr))
		}
	}
	checkAbsorbProduction(t)
}

// checkAbsorbFollowsX1 checks that production links the absorb variant
// of every keccak.x1 variant the compiled table names.
func checkAbsorbFollowsX1(t *testing.T, prod []string) {
	t.Helper()
	tab := dispatch.Compiled()
	var named []string
	for _, e := range tab.Entries {
		if e.Kernel == kernelName(1) {
			named = appendChoices(named, e.Choices)
		}
	}
	for _, d := range tab.Defaults {
		if d.Kernel == kernelName(1) {
			named = appendChoices(named, d.Choices)
		}
	}
	for _, name := range named {
		if findAbsorber(absorbers(), name) != nil && !slices.Contains(prod, name) {
			t.Errorf("%s: the dispatch table names keccak.x1 %q, whose absorb variant production does not link (regenerate: go generate ./kernels/...)", sha3Kernel, name)
		}
	}
}

func appendChoices(names []string, cs []dispatch.Choice) []string {
	for _, c := range cs {
		names = append(names, c.Variant)
	}
	return names
}

// checkAbsorbProduction checks that AbsorbBlocks' plan among the
// production absorb variants, following keccak.x1's production
// selection, is the lab's, unless TUNELAB_DISPATCH forces sha3.256 or
// keccak.x1.
func checkAbsorbProduction(t *testing.T) {
	t.Helper()
	ov := dispatch.Overrides()
	if ov[sha3Kernel] != "" || ov[kernelName(1)] != "" {
		return
	}
	prod := prodAbsorbImpls()
	var plan []absorbChoice
	for _, c := range dispatch.Plan(sha3Kernel, variant.Candidates(prod)) {
		name, fn := variant.GenericName, absorbFunc(absorbGeneric)
		if m := variant.Find(prod, c.Variant); m != nil && cpu.Has(m.Features...) {
			name, fn = m.Name, m.Fn
		}
		name, _ = resolveAbsorb(c, name, fn, prod)
		plan = append(plan, absorbChoice{maxSize: c.MaxSize, name: name})
	}
	got := planNames(plan)
	sha3Slot.Replan() // dispatch.Plan recorded production's plan; record the lab's again
	if want := planNames(absorbPlan()); got != want {
		t.Errorf("AbsorbBlocks: production plans %s, the lab %s", got, want)
	}
}
