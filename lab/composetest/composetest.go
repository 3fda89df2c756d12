// Package composetest checks a family's whole-operation kernels in its
// tests: every runnable composition agrees with the reference, and
// running one leaves the dispatched kernels as they were.
package composetest

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/compose"
)

// CheckOperations verifies every runnable composition of every op
// against the generic reference composition on a few seeds, and checks
// the composition space: the reference first, ways 1/2/4/8 at least on
// the generic NTT, an ntt knob in every name. The ops' compositions must
// be registered (the family's RegisterVariants).
func CheckOperations(t *testing.T, ops []compose.Op) {
	t.Helper()
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, op := range ops {
		name := op.Kernel.Name
		if k := variant.LookupKernel(name); k == nil || !k.Allocates || !k.Operation {
			t.Fatalf("%s: kernel not registered as an allocating operation", name)
		}
		vs := variant.Variants(name)
		if len(vs) < 1+4 || vs[0].Name != variant.GenericName {
			t.Fatalf("%s: %d variants, want the reference and at least ways 1/2/4/8 on the generic NTT", name, len(vs))
		}
		for _, v := range vs {
			if !strings.Contains(v.Name, "ntt=") && v.Name != variant.GenericName {
				t.Errorf("%s %s: no ntt knob", name, v.Name)
			}
			if !cpu.Has(v.Features...) {
				continue
			}
			for _, seed := range seeds {
				if err := v.Verify(0, seed); err != nil {
					t.Errorf("%s %s seed %d: %v", name, v.Name, seed, err)
				}
			}
		}
	}
}

// CheckRestores runs composition name of kernel and checks that state
// (e.g. the addresses of the dispatched NTT functions) is the same after.
func CheckRestores(t *testing.T, kernel, name string, state func() string) {
	t.Helper()
	v := variant.Lookup(kernel, name)
	if v == nil {
		t.Fatalf("no composition %s of %s", name, kernel)
	}
	before := state()
	v.New(0, 9).Run(2)
	if after := state(); after != before {
		t.Errorf("kernels after running %s: %s, want %s as before", name, after, before)
	}
}
