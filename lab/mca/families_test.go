//go:build amd64 && !purego

package mca_test

import (
	"context"
	"os/exec"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/all"
	"github.com/tunelab/tunelab/lab/mca"
)

// loopVariants returns every registered variant with generated hot code:
// a labelled loop or a straight-line function.
func loopVariants() []*variant.Variant {
	var out []*variant.Variant
	for _, k := range variant.Kernels() {
		for _, v := range variant.Variants(k.Name) {
			if v.HasHotCode() {
				out = append(out, v)
			}
		}
	}
	return out
}

// TestExtractFamilies checks, for every generated variant of every family,
// that extraction yields exactly the instructions from the loop label to
// its back-edge in the generated .s file.
func TestExtractFamilies(t *testing.T) {
	if _, err := exec.LookPath(mca.ObjdumpPath); err != nil {
		t.Skip("GNU objdump not installed")
	}
	vs := loopVariants()
	if len(vs) == 0 {
		t.Skip("no generated variants registered")
	}
	families := map[string]bool{}
	for _, v := range vs {
		rs := mca.PredictAll(context.Background(), "", []*variant.Variant{v}, nil, 0)
		r := rs[0]
		if r.Skipped != "" {
			t.Errorf("%s %s: %s", v.Kernel, v.Name, r.Skipped)
			continue
		}
		families[variant.LookupKernel(v.Kernel).Family] = true
	}
	t.Logf("extracted loops of %d variants in families %v", len(vs), families)
}

// TestMCAAcceptsFamilies feeds one loop per family to llvm-mca for the
// host-independent Zen 4 model and requires a complete prediction.
func TestMCAAcceptsFamilies(t *testing.T) {
	bin, err := mca.Find()
	if err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath(mca.ObjdumpPath); err != nil {
		t.Skip("GNU objdump not installed")
	}
	seen := map[string]bool{}
	for _, v := range loopVariants() {
		fam := variant.LookupKernel(v.Kernel).Family
		if seen[fam] {
			continue
		}
		seen[fam] = true
		r := mca.PredictAll(context.Background(), bin, []*variant.Variant{v}, []string{"znver4"}, 0)[0]
		p := r.For("znver4")
		switch {
		case r.Skipped != "":
			t.Errorf("%s %s: %s", v.Kernel, v.Name, r.Skipped)
		case p == nil:
			t.Errorf("%s %s: no znver4 prediction: %+v", v.Kernel, v.Name, r.Predictions)
		case len(p.Unsupported) > 0:
			t.Errorf("%s %s: llvm-mca did not model %v", v.Kernel, v.Name, p.Unsupported)
		case p.CyclesPerIter <= 0:
			t.Errorf("%s %s: %v cycles/iter", v.Kernel, v.Name, p.CyclesPerIter)
		}
	}
}

// TestWholeFunctionBound checks that a straight-line function without a
// loop label (an align=none NTT) is analysed whole, once per op, and that
// its extracted instructions are the function's, entry through RET.
func TestWholeFunctionBound(t *testing.T) {
	if _, err := exec.LookPath(mca.ObjdumpPath); err != nil {
		t.Skip("GNU objdump not installed")
	}
	var v *variant.Variant
	for _, c := range variant.Variants("mlkem.ntt") {
		if c.Symbol != "" && c.LoopLabel == "" {
			v = c
			break
		}
	}
	if v == nil {
		t.Skip("no unlabelled mlkem.ntt variant registered")
	}
	r := mca.PredictAll(context.Background(), "", []*variant.Variant{v}, nil, 0)[0]
	switch {
	case r.Skipped != "":
		t.Fatalf("%s: %s", v.Name, r.Skipped)
	case r.TripsPerOp != 1:
		t.Errorf("%s: %v trips per op, want 1 (the whole function)", v.Name, r.TripsPerOp)
	case r.Loop.Head != r.Loop.Entry || !r.Loop.Straight:
		t.Errorf("%s: block [%#x, %#x) of function [%#x, %#x), straight %v: want the whole function",
			v.Name, r.Loop.Head, r.Loop.BodyEnd, r.Loop.Entry, r.Loop.End, r.Loop.Straight)
	}
}
