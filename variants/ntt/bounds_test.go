package main

import (
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/variants/mlkem"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// TestBoundsSemanticsMatchHardware runs the range analysis on concrete
// inputs (every lane a constant) over the generated ML-KEM NTT and
// InvNTT variants, and compares its exact outputs with what the compiled
// functions (lab/variants/mlkem, on this CPU) return: a wrong model of a
// shuffle, blend or arithmetic instruction would disagree.
func TestBoundsSemanticsMatchHardware(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and compiles every ML-KEM NTT variant")
	}
	build(&kem)
	f, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(f)
	byName := map[string]int{}
	fns := f.Functions()
	for i, fn := range fns {
		byName[fn.Name] = i
	}
	r := polyvec.NewRand(7)
	checked := 0
	for _, c := range []struct{ kernel, table string }{{"mlkem.ntt", "mlkem.asmNTT"}, {"mlkem.invntt", "mlkem.asmInvNTT"}} {
		k, _ := contract.Of(c.kernel)
		for _, im := range variant.LabTable[func(*[256]int16)](c.table) {
			if im.Fn == nil || !cpu.Has(im.Features...) {
				continue
			}
			sym := im.Symbol[len("github.com/tunelab/tunelab/lab/variants/mlkem."):]
			i, ok := byName[sym]
			if !ok {
				t.Fatalf("%s: no function %s built", im.Name, sym)
			}
			var in [256]int16
			polyvec.Fill(r, int16(kem.q), &in)
			ps := bounds.ParamsOf(k)
			ps[0].Values = make([]int64, 256)
			for j, x := range in {
				ps[0].Values[j] = int64(x)
			}
			res := bounds.Analyze(fns[i], d, ps)
			if res.Status != bounds.Proven {
				t.Fatalf("%s %s on a concrete input: %s (%v)", c.kernel, im.Name, res.Status, res.Finding)
			}
			got := in
			im.Fn(&got)
			for j, l := range res.Lanes["f"] {
				if l.Lo != l.Hi || int64(got[j]) != l.Lo {
					t.Fatalf("%s %s lane %d: analysis %v, hardware %d", c.kernel, im.Name, j, l, got[j])
				}
			}
			checked++
		}
	}
	k, _ := contract.Of("mlkem.mulntt")
	for _, im := range variant.LabTable[func(h, a, b *[256]int16)]("mlkem.asmMulNTT") {
		if im.Fn == nil || !cpu.Has(im.Features...) {
			continue
		}
		fn := fns[byName[im.Symbol[len("github.com/tunelab/tunelab/lab/variants/mlkem."):]]]
		var a, b, h [256]int16
		polyvec.Fill(r, int16(kem.q), &a)
		polyvec.Fill(r, int16(kem.q), &b)
		ps := bounds.ParamsOf(k)
		for i, p := range []*[256]int16{nil, &a, &b} {
			if p == nil {
				continue
			}
			ps[i].Values = make([]int64, 256)
			for j, x := range p {
				ps[i].Values[j] = int64(x)
			}
		}
		res := bounds.Analyze(fn, d, ps)
		if res.Status != bounds.Proven {
			t.Fatalf("mlkem.mulntt %s on a concrete input: %s (%v)", im.Name, res.Status, res.Finding)
		}
		im.Fn(&h, &a, &b)
		for j, l := range res.Lanes["h"] {
			if l.Lo != l.Hi || int64(h[j]) != l.Lo {
				t.Fatalf("mlkem.mulntt %s lane %d: analysis %v, hardware %d", im.Name, j, l, h[j])
			}
		}
		checked++
	}
	if checked == 0 {
		t.Skip("no lab variant runs on this CPU")
	}
	t.Logf("%d variants agree with the hardware lane by lane", checked)
}
