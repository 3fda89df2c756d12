package main

import (
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// TestBoundsSemanticsMatchSpec runs the range analysis on concrete
// inputs (every lane a constant) over every power2round and response
// variant and compares its exact output lanes with FIPS 204's
// Power2Round of t0 + s2 mod q and with z + centered(cs1), written here
// as kernels/mldsa's generic code computes them (whose agreement with
// the compiled variants kernels/mldsa's tests check): a wrong model of
// the unsigned minimum, the shifts, the compare (into a vector or an
// opmask), the masked subtraction or the addition would disagree.
func TestBoundsSemanticsMatchSpec(t *testing.T) {
	b := &famgen.Builder{Consts: vecgen.NewConsts("roundconst")}
	build(b)
	b.Consts.Emit()
	file, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(file)
	r := polyvec.NewRand(5)
	poly := func(shift int64) ([256]int32, []int64) {
		var p [256]int32
		polyvec.Fill(r, int32(q), &p)
		vs := make([]int64, 256)
		for i := range p {
			p[i] -= int32(shift)
			vs[i] = int64(p[i])
		}
		return p, vs
	}
	checked := 0
	for _, fn := range file.Functions() {
		var want map[string][256]int32
		var ps []bounds.Param
		switch {
		case len(fn.Name) > 12 && fn.Name[:12] == "power2round_":
			k, _ := contract.Of("mldsa.power2round")
			ps = bounds.ParamsOf(k)
			t0, tv := poly(0)
			s2, sv := poly(q / 2)
			ps[1].Values, ps[2].Values = tv, sv
			var t1 [256]int32
			for i := range t0 {
				x := t0[i] + s2[i] + s2[i]>>31&q - q // t0 + canon(s2) − q
				x += x >> 31 & q
				t1[i] = (x + 1<<12 - 1) >> 13
				t0[i] = x - t1[i]<<13
			}
			want = map[string][256]int32{"t1": t1, "t0": t0}
		case len(fn.Name) > 9 && fn.Name[:9] == "response_":
			k, _ := contract.Of("mldsa.response")
			ps = bounds.ParamsOf(k)
			z, zv := poly(q / 2)
			for i := range z { // into [-(2^19-1), 2^19]
				z[i] /= 8
				zv[i] = int64(z[i])
			}
			cs1, cv := poly(0)
			ps[0].Values, ps[1].Values = zv, cv
			for i, x := range cs1 {
				z[i] += x - ((q-1)/2-x)>>31&q
			}
			want = map[string][256]int32{"z": z}
		default:
			continue
		}
		res := bounds.Analyze(fn, d, ps)
		if res.Status != bounds.Proven {
			t.Fatalf("%s on a concrete input: %s (%v)", fn.Name, res.Status, res.Finding)
		}
		for arg, w := range want {
			for j, l := range res.Lanes[arg] {
				if l.Lo != l.Hi || l.Lo != int64(w[j]) {
					t.Fatalf("%s %s[%d]: analysis %v, spec %d", fn.Name, arg, j, l, w[j])
				}
			}
		}
		checked++
	}
	if checked != 10 {
		t.Fatalf("%d variants checked, want 10 (5 power2round, 5 response)", checked)
	}
}
