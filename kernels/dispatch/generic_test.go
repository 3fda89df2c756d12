package dispatch_test

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestGenericName checks that dispatch's fallback is the registry's
// generic variant.
func TestGenericName(t *testing.T) {
	kp := dispatch.Resolve(cpu.Host(), dispatch.Table{}, "", "test.none", nil)
	if len(kp.Choices) != 1 || kp.Choices[0].Variant != variant.GenericName {
		t.Errorf("fallback plan %+v, want only %s", kp.Choices, variant.GenericName)
	}
}
