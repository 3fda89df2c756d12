package mldsa

import (
	"fmt"
	"testing"

	"github.com/tunelab/tunelab/lab/composetest"
)

// TestOperations verifies every runnable composition of every operation
// kernel against the generic reference composition.
func TestOperations(t *testing.T) {
	RegisterVariants()
	composetest.CheckOperations(t, operations())
}

// TestOperationRestoresDispatch checks that running a composition leaves
// the dispatched NTT and coefficient kernels as they were.
func TestOperationRestoresDispatch(t *testing.T) {
	RegisterVariants()
	composetest.CheckRestores(t, "mldsa65.sign", "ways=1/ntt=generic/poly=generic", func() string {
		return fmt.Sprintf("%p %p %p %p %p", kernels.NTT.Fn, kernels.InvNTT.Fn, kernels.MulNTT.Fn,
			roundKernels.lowBits.Fn, roundKernels.response.Fn)
	})
}
