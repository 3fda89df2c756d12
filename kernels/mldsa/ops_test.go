package mldsa

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestOperations verifies every runnable composition of every operation
// kernel against the generic reference composition on a few seeds, and
// checks the composition space: ways 1/2/4/8 × the NTT tiers.
func TestOperations(t *testing.T) {
	RegisterVariants()
	seeds := []uint64{1, 2, 3}
	if testing.Short() {
		seeds = seeds[:1]
	}
	for _, op := range operations {
		vs := variant.Variants(op.Kernel.Name)
		if k := variant.LookupKernel(op.Kernel.Name); k == nil || !k.Allocates {
			t.Fatalf("%s: kernel not registered as allocating", op.Kernel.Name)
		}
		if len(vs) < 1+4 || vs[0].Name != variant.GenericName {
			t.Fatalf("%s: %d variants, want the reference and at least ways 1/2/4/8 on the generic NTT", op.Kernel.Name, len(vs))
		}
		for _, v := range vs {
			if !strings.Contains(v.Name, "ntt=") && v.Name != variant.GenericName {
				t.Errorf("%s %s: no ntt knob", op.Kernel.Name, v.Name)
			}
			if !dispatch.Has(v.Features...) {
				continue
			}
			for _, seed := range seeds {
				if err := v.Verify(0, seed); err != nil {
					t.Errorf("%s %s seed %d: %v", op.Kernel.Name, v.Name, seed, err)
				}
			}
		}
	}
}

// TestOperationRestoresDispatch checks that running a composition leaves
// the dispatched kernels as they were.
func TestOperationRestoresDispatch(t *testing.T) {
	RegisterVariants()
	v := variant.Lookup("mldsa65.sign", "ways=1/ntt=generic")
	if v == nil {
		t.Fatal("no ways=1/ntt=generic composition")
	}
	ptrs := func() string {
		return fmt.Sprintf("%p %p %p", kernels.NTT, kernels.InvNTT, kernels.MulNTT)
	}
	before := ptrs()
	v.New(0, 9).Run(2)
	if after := ptrs(); after != before {
		t.Errorf("kernels after a composition %s, want %s as before", after, before)
	}
}
