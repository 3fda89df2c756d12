package bounds_test

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/variants/internal/bounds"
)

const dq = 8380417 // ML-DSA's q

// splat32 returns a DATA vector of 8 copies of the 32-bit v.
func splat32(c *build.Context, name string, v int64) Mem {
	m := c.StaticGlobal(name)
	for i := 0; i < 8; i++ {
		c.AddDatum(4*i, U32(uint32(v)))
	}
	return m
}

// A shoupDefect changes one step of shoupBody.
type shoupDefect int

const (
	shoupRight    shoupDefect = iota
	shoupWrongW               // w′ of another constant
	shoupSwapped              // the even lanes' quotient of the odd lanes
	shoupLowHalf              // t the low half of x·w′
	shoupOtherMul             // the minuend multiplies another lane
)

// shoupBody emits variants/ntt's shoupMul by w = 1753 on the 8 int32
// lanes of f, with defect d.
func shoupBody(d shoupDefect) func(c *build.Context, f reg.Register) {
	const w = 1753
	wq := (int64(w)<<33 + dq) / (2 * dq)
	if d == shoupWrongW {
		wq = (int64(w+1)<<33 + dq) / (2 * dq)
	}
	return func(c *build.Context, f reg.Register) {
		wv, wqv, qv := splat32(c, "w", w), splat32(c, "wq", wq), splat32(c, "q", dq)
		a, ao, te, to, r := c.YMM(), c.YMM(), c.YMM(), c.YMM(), c.YMM()
		c.VMOVDQU(Mem{Base: f}, a)
		c.VMOVSHDUP(a, ao)
		if d == shoupSwapped {
			c.VPMULDQ(wqv, ao, te)
		} else {
			c.VPMULDQ(wqv, a, te)
		}
		c.VPMULDQ(wqv, ao, to)
		if d != shoupLowHalf {
			c.VMOVSHDUP(te, te)
		}
		c.VPBLENDD(U8(0xAA), to, te, te)
		if d == shoupOtherMul {
			c.VPMULLD(wv, ao, r)
		} else {
			c.VPMULLD(wv, a, r)
		}
		c.VPMULLD(qv, te, te)
		c.VPSUBD(te, r, r)
		c.VMOVDQU(r, Mem{Base: f})
	}
}

func params32(in, out bounds.Interval) []bounds.Param {
	return []bounds.Param{{Name: "f", Elem: 4, Lanes: 8, In: &in, Out: &out}}
}

// TestShoupProven: Shoup's product of lanes within ±8q is proven within
// [−d, q + d], d = ⌈8q²/2^33⌉ (the identity's bound); each defect in its
// data flow leaves it unproven (the rule does not apply, the wrapping
// product is read as a value).
func TestShoupProven(t *testing.T) {
	in := bounds.Interval{Lo: -8 * dq, Hi: 8 * dq}
	d := int64(8*dq*dq)>>33 + 1
	fn, data := compiled(t, shoupBody(shoupRight))
	r := bounds.Analyze(fn, data, params32(in, bounds.Interval{Lo: -d, Hi: dq + d}))
	if r.Status != bounds.Proven {
		t.Fatalf("status %s (%v), want proven", r.Status, r.Finding)
	}
	for _, def := range []shoupDefect{shoupWrongW, shoupSwapped, shoupLowHalf, shoupOtherMul} {
		fn, data := compiled(t, shoupBody(def))
		r := bounds.Analyze(fn, data, params32(in, bounds.Interval{Lo: -dq, Hi: 2 * dq}))
		if r.Status == bounds.Proven {
			t.Errorf("defect %d: proven, want not", def)
		}
	}
}

// TestShoupCorrectionPlant: the plant shoup-correction-removed, on
// Shoup's product followed by min(x, x+q), is an overflow (the proven
// [−d, q+d] leaves [0, q+d] once the correction is gone).
func TestShoupCorrectionPlant(t *testing.T) {
	in := bounds.Interval{Lo: -8 * dq, Hi: 8 * dq}
	d := int64(8*dq*dq)>>33 + 1
	fn, data := compiled(t, func(c *build.Context, f reg.Register) {
		shoupBody(shoupRight)(c, f)
		x, y := c.YMM(), c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPADDD(splat32(c, "q2", dq), x, y)
		c.VPMINUD(y, x, x)
		c.VMOVDQU(x, Mem{Base: f})
	})
	ps := params32(in, bounds.Interval{Lo: 0, Hi: dq + d})
	if r := bounds.Analyze(fn, data, ps); r.Status != bounds.Proven {
		t.Fatalf("before planting: %s (%v), want proven", r.Status, r.Finding)
	}
	if r := bounds.RunPlant(plant(t, "shoup-correction-removed"), fn, data, ps); !r.OK() {
		t.Errorf("%s %v (err %v), want an overflow with lane and instruction", r.Result.Status, r.Result.Finding, r.Err)
	}
}
