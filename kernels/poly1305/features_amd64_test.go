//go:build !purego

package poly1305

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for the functions it runs in the generated
// assembly.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "poly1305_amd64.s", []string{kernel}, executes)
}

// executes lists the generated functions a variant runs: a scalar
// variant's one-shot Sum (its Symbol) and its block function; a vector
// variant's block function (its Symbol), variant 0's scalar blocks, which
// finish the blocks after the last vector iteration, and its one-shot
// Sum, which computes messages shorter than one iteration.
func executes(v *variant.Variant) []string {
	sym := asmtest.LocalName(v.Symbol)
	if blocks, ok := strings.CutPrefix(sym, "sum"); ok {
		return []string{sym, "blocks" + blocks}
	}
	first := asmtest.LocalName(labVariants()[0].Symbol)
	return []string{sym, "blocks" + strings.TrimPrefix(first, "sum"), first}
}
