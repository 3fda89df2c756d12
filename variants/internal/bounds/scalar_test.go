package bounds_test

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// compiledK is compiled for func(f *[16]int16, k int), k in a register.
func compiledK(t *testing.T, body func(c *build.Context, f, k reg.Register)) (*ir.Function, bounds.Data) {
	t.Helper()
	c := build.NewContext()
	c.Function("f")
	c.SignatureExpr("func(f *[16]int16, k int)")
	f := c.Load(c.Param("f"), c.GP64())
	k := c.Load(c.Param("k"), c.GP64())
	body(c, f, k)
	c.RET()
	file, err := c.Result()
	if err != nil {
		t.Fatalf("building: %v", err)
	}
	if err := pass.Compile.Execute(file); err != nil {
		t.Fatalf("compiling: %v", err)
	}
	return file.Functions()[0], bounds.DataOf(file)
}

// TestScalarValuesRunEach: a loop of k doublings, k a parameter, is run
// for every value of k's contract: proven for k ≤ 2 on [0, 5000], an
// overflow naming k = 3 when the contract allows it.
func TestScalarValuesRunEach(t *testing.T) {
	fn, d := compiledK(t, func(c *build.Context, f, k reg.Register) {
		x, s := c.YMM(), c.GP64()
		c.VMOVDQU(Mem{Base: f}, x)
		c.MOVQ(k, s)
		c.SHLQ(U8(1), s) // two halvings of the count: exercised, and undone
		c.SUBQ(k, s)
		c.Label("loop")
		c.VPADDW(x, x, x)
		c.DECQ(s)
		c.JNZ(LabelRef("loop"))
		c.VMOVDQU(x, Mem{Base: f})
		c.VZEROUPPER()
	})
	in := bounds.Interval{Lo: 0, Hi: 5000}
	ps := params(in, int16s)
	r := bounds.AnalyzeAll(fn, d, ps, []bounds.ScalarValues{{Name: "k", Values: []int64{1, 2}}})
	if r.Status != bounds.Proven || r.Out != (bounds.Interval{Lo: 0, Hi: 20000}) {
		t.Fatalf("k in {1, 2}: %s %v (%v), want proven [0, 20000]", r.Status, r.Out, r.Finding)
	}
	r = bounds.AnalyzeAll(fn, d, ps, []bounds.ScalarValues{{Name: "k", Values: []int64{1, 2, 3}}})
	if r.Status != bounds.Overflow || !strings.Contains(r.Finding.What, "k=3") {
		t.Fatalf("k in {1, 2, 3}: %s (%v), want an overflow with k=3", r.Status, r.Finding)
	}
}

// TestWrapShiftBounded: a right shift of a wrapping low product is
// bounded whatever the product (VPSRAW $8: [−128, 127]); a left shift
// keeps it wrapping, which no output may be.
func TestWrapShiftBounded(t *testing.T) {
	body := func(left bool) func(c *build.Context, f reg.Register) {
		return func(c *build.Context, f reg.Register) {
			x := c.YMM()
			c.VMOVDQU(Mem{Base: f}, x)
			c.VPMULLW(splat(c, "m", 3327), x, x)
			if left {
				c.VPSLLW(U8(8), x, x)
			} else {
				c.VPSRAW(U8(8), x, x)
			}
			c.VMOVDQU(x, Mem{Base: f})
			c.VZEROUPPER()
		}
	}
	in := bounds.Interval{Lo: 0, Hi: q - 1}
	fn, d := compiled(t, body(false))
	if r := bounds.Analyze(fn, d, params(in, bounds.Interval{Lo: -128, Hi: 127})); r.Status != bounds.Proven {
		t.Fatalf("sra of a wrap: %s (%v), want proven", r.Status, r.Finding)
	}
	if r := bounds.Analyze(fn, d, params(in, bounds.Interval{Lo: -127, Hi: 127})); r.Status != bounds.Overflow {
		t.Fatalf("sra of a wrap into [-127, 127]: %s (%v), want overflow", r.Status, r.Finding)
	}
	fn, d = compiled(t, body(true))
	if r := bounds.Analyze(fn, d, params(in, int16s)); r.Status == bounds.Proven {
		t.Fatalf("sll of a wrap stored: proven, want not proven")
	}
}

// TestOrMerge: an OR of two vectors whose nonzero bytes never meet (the
// even words kept by a mask, the same words shifted up) merges their
// bytes; an OR of bytes that may both be nonzero (each word with the one
// below it) is computed lane by lane, bounded by the next power of two:
// [0, 4095], outside the canonical output bound.
func TestOrMerge(t *testing.T) {
	body := func(disjoint bool) func(c *build.Context, f reg.Register) {
		return func(c *build.Context, f reg.Register) {
			x, y, z := c.YMM(), c.YMM(), c.YMM()
			c.VMOVDQU(Mem{Base: f}, x)
			c.VPSLLD(U8(16), x, y)
			m := c.StaticGlobal("mask")
			for i := 0; i < 8; i++ {
				c.AddDatum(4*i, U32(0xffff))
			}
			c.VPAND(m, x, z)
			if !disjoint {
				z = x
			}
			c.VPOR(y, z, z)
			c.VMOVDQU(z, Mem{Base: f})
			c.VZEROUPPER()
		}
	}
	in := bounds.Interval{Lo: 0, Hi: q - 1}
	fn, d := compiled(t, body(true))
	if r := bounds.Analyze(fn, d, params(in, in)); r.Status != bounds.Proven {
		t.Fatalf("disjoint OR: %s (%v), want proven", r.Status, r.Finding)
	}
	fn, d = compiled(t, body(false))
	if r := bounds.Analyze(fn, d, params(in, in)); r.Status != bounds.Overflow || !strings.Contains(r.Finding.What, "[0, 4095]") {
		t.Fatalf("overlapping OR: %s (%v), want an overflow of [0, 4095]", r.Status, r.Finding)
	}
}
