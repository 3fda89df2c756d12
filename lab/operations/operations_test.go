package operations

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/composetest"
	_ "github.com/tunelab/tunelab/lab/variants"
)

// TestOperations verifies every runnable composition of every operation
// kernel against the generic reference composition.
func TestOperations(t *testing.T) {
	RegisterVariants()
	composetest.CheckOperations(t, append(kemOperations(), dsaOperations()...))
}

// TestOperationRestoresDispatch checks that running a composition leaves
// the dispatched NTT and coefficient kernels of its scheme as they were.
func TestOperationRestoresDispatch(t *testing.T) {
	RegisterVariants()
	for _, op := range []string{"mlkem768.keygen", "mldsa65.sign"} {
		scheme := op[:strings.IndexByte(op, '.')-2]
		composetest.CheckRestores(t, op, "ways=1/ntt=generic/poly=generic", func() string { return selected(t, scheme) })
	}
}

// TestKnobsCoverTheScheme checks that the poly knob of each scheme
// covers every coefficient kernel the family registers and no
// operation or NTT kernel.
func TestKnobsCoverTheScheme(t *testing.T) {
	RegisterVariants()
	ntt := []string{"mlkem.ntt", "mlkem.invntt", "mlkem.mulntt"}
	poly := coefficientKernels("mlkem", ntt)
	for _, want := range []string{"mlkem.cbd2", "mlkem.compress", "mlkem.matvec", "mlkem.rejntt"} {
		if !strings.Contains(strings.Join(poly, " "), want) {
			t.Errorf("mlkem poly knob kernels %v lack %s", poly, want)
		}
	}
	for _, k := range poly {
		if strings.HasSuffix(k, ".ntt") || strings.HasPrefix(k, "mlkem768") {
			t.Errorf("mlkem poly knob covers %s", k)
		}
	}
}

// selected returns which variant every registered kernel of scheme runs.
func selected(t *testing.T, scheme string) string {
	var b strings.Builder
	for _, k := range variant.Kernels() {
		if strings.HasPrefix(k.Name, scheme+".") && !k.Operation {
			if k.Selected == nil {
				t.Fatalf("kernel %s has no Selected hook", k.Name)
			}
			fmt.Fprintf(&b, "%s=%s ", k.Name, k.Selected())
		}
	}
	return b.String()
}
