//go:build amd64 && !purego

package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/variants/mldsa"
	_ "github.com/tunelab/tunelab/lab/variants/mlkem"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// boundsField selects the field TestBoundsSemanticsMatchHardware builds
// (one per process: avo's build context is global).
const boundsField = "TUNELAB_BOUNDS_FIELD"

// TestBoundsSemanticsMatchHardware runs the range analysis on concrete
// inputs (every lane a constant) over the generated NTT, InvNTT and
// MulNTT variants of ML-KEM (and, in a child process, ML-DSA), and
// compares its exact outputs with what the compiled functions
// (lab/variants, on this CPU) return: a wrong model of a shuffle, blend,
// mask or arithmetic instruction would disagree.
func TestBoundsSemanticsMatchHardware(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and compiles every NTT variant of a field")
	}
	switch os.Getenv(boundsField) {
	case "dsa":
		n := semanticsCheck[int32](t, &dsa, "mldsa")
		t.Logf("%d ML-DSA variants agree with the hardware lane by lane", n)
		return
	case "":
	default:
		t.Fatalf("%s=%q: want dsa or unset", boundsField, os.Getenv(boundsField))
	}
	n := semanticsCheck[int16](t, &kem, "mlkem")
	t.Logf("%d ML-KEM variants agree with the hardware lane by lane", n)
	cmd := exec.Command(os.Args[0], "-test.run=^TestBoundsSemanticsMatchHardware$", "-test.v")
	cmd.Env = append(os.Environ(), boundsField+"=dsa")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ML-DSA variants agree") && !strings.Contains(string(out), "SKIP") {
		t.Fatalf("the ML-DSA check: %v\n%s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, "agree") {
			t.Log(strings.TrimSpace(l))
		}
	}
}

// semanticsCheck builds every function of field f, compiles it and
// compares the analysis with the hardware on one random input per
// variant that runs here; it returns how many agreed (the others are
// those whose wrapping products the analysis does not model).
func semanticsCheck[E int16 | int32](t *testing.T, f *field, pkg string) int {
	build(f)
	file, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(file)
	fns := map[string]*ir.Function{}
	for _, fn := range file.Functions() {
		fns[fn.Name] = fn
	}
	prefix := "github.com/tunelab/tunelab/lab/variants/" + pkg + "."
	r := polyvec.NewRand(7)
	q := E(f.q)
	values := func(p *[256]E) []int64 {
		v := make([]int64, 256)
		for j, x := range p {
			v[j] = int64(x)
		}
		return v
	}
	checked := 0
	compare := func(kernel, name, arg string, res bounds.Result, got *[256]E) {
		t.Helper()
		if res.Status != bounds.Proven {
			t.Fatalf("%s %s on a concrete input: %s (%v)", kernel, name, res.Status, res.Finding)
		}
		for j, l := range res.Lanes[arg] {
			if l.Lo != l.Hi || int64(got[j]) != l.Lo {
				t.Fatalf("%s %s lane %d: analysis %v, hardware %d", kernel, name, j, l, got[j])
			}
		}
		checked++
	}
	for _, c := range []struct{ kernel, table string }{{pkg + ".ntt", pkg + ".asmNTT"}, {pkg + ".invntt", pkg + ".asmInvNTT"}} {
		k, _ := contract.Of(c.kernel)
		for _, im := range variant.LabTable[func(*[256]E)](c.table) {
			if im.Fn == nil || !cpu.Has(im.Features...) {
				continue
			}
			var in [256]E
			polyvec.Fill(r, q, &in)
			ps := bounds.ParamsOf(k)
			ps[0].Values = values(&in)
			res := bounds.Analyze(fns[strings.TrimPrefix(im.Symbol, prefix)], d, ps)
			got := in
			im.Fn(&got)
			compare(c.kernel, im.Name, "f", res, &got)
		}
	}
	k, _ := contract.Of(pkg + ".mulntt")
	for _, im := range variant.LabTable[func(h, a, b *[256]E)](pkg + ".asmMulNTT") {
		if im.Fn == nil || !cpu.Has(im.Features...) {
			continue
		}
		var a, b, h [256]E
		polyvec.Fill(r, q, &a)
		polyvec.Fill(r, q, &b)
		ps := bounds.ParamsOf(k)
		ps[1].Values, ps[2].Values = values(&a), values(&b)
		res := bounds.Analyze(fns[strings.TrimPrefix(im.Symbol, prefix)], d, ps)
		im.Fn(&h, &a, &b)
		compare(k.Name, im.Name, "h", res, &h)
	}
	if checked == 0 {
		t.Skip("no lab variant runs on this CPU")
	}
	return checked
}
