package main

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// TestBoundsSemanticsMatchSpec runs the range analysis on concrete
// inputs (every lane a constant) over every power2round, response,
// lowbits and makehint variant and compares its exact output lanes with
// FIPS 204's Power2Round of t0 + s2 mod q, z + centered(cs1), w − cs2
// mod q with HighBits (Decompose) and MakeHint, written here as
// kernels/mldsa's generic code computes them (whose agreement with the
// compiled variants kernels/mldsa's tests check): a wrong model of the
// unsigned minimum, the shifts, the compares (into a vector, VPCMPEQD,
// or an opmask, VPCMPUD's predicates), the masked subtraction and
// zeroing move, VPANDN, the saturating packs, VPERMD, VPMOVDB or the
// addition would disagree.
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
		case strings.HasPrefix(fn.Name, "lowbits_"), strings.HasPrefix(fn.Name, "makehint_"):
			for _, set := range roundSets {
				checkRound(t, fn, d, set, poly)
				checked++
			}
			continue
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
	if checked != 30 {
		t.Fatalf("%d runs checked, want 30 (5 power2round, 5 response, 5 lowbits and 5 makehint for each γ2)", checked)
	}
}

// roundSets are Decompose's constants {mult, m, 2γ2} of both γ2, as
// kernels/mldsa's rounding32 and rounding88 hold them.
var roundSets = [][3]int32{{4100, 16, 2 * ((q - 1) / 32)}, {11275, 44, 2 * ((q - 1) / 88)}}

// decompose is Decompose (FIPS 204 Algorithm 36) of canonical r as
// kernels/mldsa's generic code computes it: (r1, r0 centered).
func decompose(r int32, c [3]int32) (int32, int32) {
	r1 := (r + 127) >> 7
	r1 = (r1*c[0] + 1<<23) >> 24
	r1 ^= (c[1] - 1 - r1) >> 31 & r1
	r0 := r - r1*c[2]
	r0 -= ((q-1)/2 - r0) >> 31 & q
	return r1, r0
}

// checkRound runs the analysis of a lowbits or makehint variant on
// concrete inputs with the constants c of one γ2 and compares its exact
// output lanes with the spec: r = w − cs2 mod q and r1 = HighBits(r)
// (lowbits), h = [HighBits(r + ct0 mod q) ≠ r1] (makehint, r1 the high
// bits of r or, for every fifth coefficient, the next value).
func checkRound(t *testing.T, fn *ir.Function, d bounds.Data, c [3]int32, poly func(int64) ([256]int32, []int64)) {
	t.Helper()
	cv := []int64{int64(c[0]), int64(c[1]), int64(c[2]), 1 << 20}
	a, av := poly(0)
	b, bv := poly(0)
	canon := func(x int32) int32 { return x + x>>31&q }
	want := map[string][]int64{}
	var ps []bounds.Param
	if strings.HasPrefix(fn.Name, "lowbits_") {
		k, _ := contract.Of("mldsa.lowbits")
		ps = bounds.ParamsOf(k)
		ps[0].Values, ps[1].Values = av, bv
		for i := range a {
			r := canon(a[i] - b[i])
			r1, _ := decompose(r, c)
			want["w"] = append(want["w"], int64(r))
			want["r1"] = append(want["r1"], int64(r1))
		}
	} else {
		k, _ := contract.Of("mldsa.makehint")
		ps = bounds.ParamsOf(k)
		r1v := make([]int64, 256)
		for i := range a {
			r1, _ := decompose(a[i], c)
			if i%5 == 0 {
				r1 = (r1 + 1) % c[1]
			}
			r1v[i] = int64(r1)
			hb, _ := decompose(canon(a[i]+b[i]-q), c)
			want["h"] = append(want["h"], map[bool]int64{false: 0, true: 1}[hb != r1])
		}
		ps[0].Values, ps[1].Values, ps[2].Values = av, bv, r1v
	}
	ps = append(ps, bounds.Param{Name: "c", Elem: 4, Lanes: 4, Values: cv})
	res := bounds.Analyze(fn, d, ps)
	if res.Status != bounds.Proven {
		t.Fatalf("%s on a concrete input (γ2 constants %v): %s (%v)", fn.Name, c, res.Status, res.Finding)
	}
	for arg, w := range want {
		if len(res.Lanes[arg]) != 256 {
			t.Fatalf("%s: %d lanes of %s, want 256", fn.Name, len(res.Lanes[arg]), arg)
		}
		for j, l := range res.Lanes[arg] {
			if l.Lo != l.Hi || l.Lo != w[j] {
				t.Fatalf("%s %s[%d] (γ2 constants %v): analysis %v, spec %d", fn.Name, arg, j, c, l, w[j])
			}
		}
	}
}
