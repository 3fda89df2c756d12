//go:build !amd64 || purego

package aesecb

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

func addAsmKeyExpanders(map[string]func([]byte, *[240]byte, *[240]byte)) {}

// TestGenericOnly checks that without assembly only the generic variant is
// registered (besides external baselines) and planned.
func TestGenericOnly(t *testing.T) {
	for _, k := range kernels {
		var vs []*variant.Variant
		for _, v := range variant.Variants(k.name) {
			if !v.External { // baselines registered by the external test
				vs = append(vs, v)
			}
		}
		if len(vs) != 1 || !vs[0].IsGeneric() {
			t.Errorf("%s: %d variants registered, want only %s", k.name, len(vs), variant.GenericName)
		}
		if plan := k.plan(); len(plan) != 1 || plan[0].Variant != variant.GenericName {
			t.Errorf("%s: plan %v, want %s", k.name, plan, variant.GenericName)
		}
	}
}
