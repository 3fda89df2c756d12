//go:build amd64 && !purego

package main

import (
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
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// TestBoundsSemanticsMatchHardware runs the range analysis on concrete
// inputs (every lane a constant, every integer parameter one value) over
// the ML-KEM mulcache and matvec and the ML-DSA matvec variants and compares its exact output
// lanes with what the compiled functions (lab/variants, on this CPU)
// return, for several k and strides: a wrong model of VPMADDWD, the
// shifts of the Montgomery quotient, the packing OR or the scalar
// pointer arithmetic would disagree. Only the lab-only variants have a
// function here (the production ones link in kernels/mlkem: Fn nil).
func TestBoundsSemanticsMatchHardware(t *testing.T) {
	b := &famgen.Builder{Consts: vecgen.NewConsts("kemmatvecconst")}
	buildKEM(b)
	b.Consts.Emit()
	bd := &famgen.Builder{Consts: vecgen.NewConsts("matvecconst")}
	buildDSA(bd)
	bd.Consts.Emit()
	file, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(file)
	fns := map[string]*ir.Function{}
	for _, fn := range file.Functions() {
		fns[fn.Name] = fn
	}
	const prefix = "github.com/tunelab/tunelab/lab/variants/mlkem."
	r := polyvec.NewRand(11)
	fill := func(n int) ([]int16, []int64) {
		xs, vs := make([]int16, n), make([]int64, n)
		for i := 0; i < n; i += 256 {
			polyvec.Fill(r, contract.QKEM, (*[256]int16)(xs[i:]))
		}
		for i, x := range xs {
			vs[i] = int64(x)
		}
		return xs, vs
	}
	exact := func(what string, res bounds.Result, arg string, got []int16) {
		t.Helper()
		if res.Status != bounds.Proven {
			t.Fatalf("%s on a concrete input: %s (%v)", what, res.Status, res.Finding)
		}
		for j, l := range res.Lanes[arg] {
			if l.Lo != l.Hi || int64(got[j]) != l.Lo {
				t.Fatalf("%s lane %d: analysis %v, hardware %d", what, j, l, got[j])
			}
		}
	}
	checked := 0
	mc, _ := contract.Of("mlkem.mulcache")
	for _, im := range variant.LabTable[func(c *[512]int16, b *[256]int16)]("mlkem.asmMulCache") {
		if im.Fn == nil || !cpu.Has(im.Features...) {
			continue
		}
		in, vs := fill(256)
		ps := bounds.ParamsOf(mc)
		ps[1].Values = vs
		var c [512]int16
		im.Fn(&c, (*[256]int16)(in))
		exact("mlkem.mulcache "+im.Name, bounds.Analyze(fns[strings.TrimPrefix(im.Symbol, prefix)], d, ps), "c", c[:])
		checked++
	}
	mv, _ := contract.Of("mlkem.matvec")
	for _, im := range variant.LabTable[func(acc, a *[256]int16, stride int, c *[512]int16, k int)]("mlkem.asmMatVec") {
		if im.Fn == nil || !cpu.Has(im.Features...) {
			continue
		}
		for _, ks := range [][2]int{{1, 1}, {2, 2}, {3, 1}, {4, 4}} {
			k, stride := ks[0], ks[1]
			a, av := fill(256 * 13)
			c, cv := fill(512 * 4)
			ps := bounds.ParamsOf(mv)
			ps[1].Values, ps[2].Values = av, cv
			ps = append(ps, bounds.Param{Name: "stride", Scalar: true, Value: int64(stride)}, bounds.Param{Name: "k", Scalar: true, Value: int64(k)})
			var acc [256]int16
			im.Fn(&acc, (*[256]int16)(a), stride, (*[512]int16)(c), k)
			exact("mlkem.matvec "+im.Name, bounds.Analyze(fns[strings.TrimPrefix(im.Symbol, prefix)], d, ps), "acc", acc[:])
			checked++
		}
	}
	dsa, _ := contract.Of("mldsa.matvec")
	const dsaPrefix = "github.com/tunelab/tunelab/lab/variants/mldsa."
	fill32 := func(n int) ([]int32, []int64) {
		xs, vs := make([]int32, n), make([]int64, n)
		for i := 0; i < n; i += 256 {
			polyvec.Fill(r, contract.QDSA, (*[256]int32)(xs[i:]))
		}
		for i, x := range xs {
			vs[i] = int64(x)
		}
		return xs, vs
	}
	for _, im := range variant.LabTable[func(acc, a, v *[256]int32, l int)]("mldsa.asmMatVec") {
		if im.Fn == nil || !cpu.Has(im.Features...) {
			continue
		}
		for _, l := range []int{1, 4, 7} {
			a, av := fill32(256 * 7)
			v, vv := fill32(256 * 7)
			ps := bounds.ParamsOf(dsa)
			ps[1].Values, ps[2].Values = av, vv
			ps = append(ps, bounds.Param{Name: "l", Scalar: true, Value: int64(l)})
			var acc [256]int32
			im.Fn(&acc, (*[256]int32)(a), (*[256]int32)(v), l)
			res := bounds.Analyze(fns[strings.TrimPrefix(im.Symbol, dsaPrefix)], d, ps)
			if res.Status != bounds.Proven {
				t.Fatalf("mldsa.matvec %s l=%d on a concrete input: %s (%v)", im.Name, l, res.Status, res.Finding)
			}
			for j, x := range res.Lanes["acc"] {
				if x.Lo != x.Hi || int64(acc[j]) != x.Lo {
					t.Fatalf("mldsa.matvec %s l=%d lane %d: analysis %v, hardware %d", im.Name, l, j, x, acc[j])
				}
			}
			checked++
		}
	}
	if checked == 0 {
		t.Skip("no lab variant runs on this CPU")
	}
	t.Logf("%d runs agree with the hardware lane by lane", checked)
}
