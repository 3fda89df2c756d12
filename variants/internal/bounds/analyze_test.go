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

const q = 3329

// compiled builds one function of signature func(f *[16]int16) in a
// fresh avo context with body, compiles it and returns it with its data.
func compiled(t *testing.T, body func(c *build.Context, f reg.Register)) (*ir.Function, bounds.Data) {
	t.Helper()
	c := build.NewContext()
	c.Function("f")
	c.SignatureExpr("func(f *[16]int16)")
	f := c.Load(c.Param("f"), c.GP64())
	body(c, f)
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

// splat returns a DATA vector of 16 copies of v.
func splat(c *build.Context, name string, v int16) Mem {
	m := c.StaticGlobal(name)
	for i := 0; i < 16; i++ {
		c.AddDatum(2*i, U16(uint16(v)))
	}
	return m
}

func params(in, out bounds.Interval) []bounds.Param {
	return []bounds.Param{{Name: "f", Elem: 2, Lanes: 16, In: &in, Out: &out}}
}

// barrett emits x - q·⌊x·20159/2^26⌋ on the lanes of f; without the
// final subtraction if short.
func barrett(short bool) func(c *build.Context, f reg.Register) {
	return func(c *build.Context, f reg.Register) {
		v, qv := splat(c, "v", 20159), splat(c, "q", q)
		x, t := c.YMM(), c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPMULHW(v, x, t)
		c.VPSRAW(U8(10), t, t)
		c.VPMULLW(qv, t, t)
		if !short {
			c.VPSUBW(t, x, x)
		}
		c.VMOVDQU(x, Mem{Base: f})
		c.VZEROUPPER()
	}
}

var int16s = bounds.Interval{Lo: -32768, Hi: 32767}

// barrettIn is where q·⌊x/q⌋ fits int16 (below -29960 it wraps, and
// the analysis flags the wrapping product used as a value: unproven).
var barrettIn = bounds.Interval{Lo: -29960, Hi: 32767}

// TestBarrettProven: the reduction maps x into [0, q], which the
// analysis proves by enumerating the input (interval arithmetic alone
// cannot: x and q·⌊x/q⌋ are correlated).
func TestBarrettProven(t *testing.T) {
	fn, d := compiled(t, barrett(false))
	r := bounds.Analyze(fn, d, params(barrettIn, bounds.Interval{Lo: 0, Hi: q}))
	if r.Status != bounds.Proven {
		t.Fatalf("status %s (%v), want proven", r.Status, r.Finding)
	}
	if r.Out != (bounds.Interval{Lo: 0, Hi: q}) {
		t.Errorf("output bound %v, want [0, q] exactly", r.Out)
	}
	// A bound one below the truth is refuted at the store, lane 0.
	r = bounds.Analyze(fn, d, params(barrettIn, bounds.Interval{Lo: 0, Hi: q - 1}))
	if r.Status != bounds.Overflow || r.Finding.Lane != 0 || !strings.HasPrefix(r.Finding.Instr, "VMOVDQU") {
		t.Fatalf("output bound [0, q-1]: %s %v, want overflow at the store, lane 0", r.Status, r.Finding)
	}
	// One more input value and the product wraps.
	wide := bounds.Interval{Lo: barrettIn.Lo - 1, Hi: barrettIn.Hi}
	if r = bounds.Analyze(fn, d, params(wide, bounds.Interval{Lo: 0, Hi: q})); r.Status != bounds.Unproven || r.Finding.Lane < 0 {
		t.Fatalf("input from %d: %s (%v), want the wrapping product flagged unproven, with its lane", wide.Lo, r.Status, r.Finding)
	}
}

// TestReductionRemoved: without its final subtraction the "reduction"
// returns x·... far outside [0, q]: an overflow at the store.
func TestReductionRemoved(t *testing.T) {
	fn, d := compiled(t, barrett(true))
	r := bounds.Analyze(fn, d, params(barrettIn, bounds.Interval{Lo: 0, Hi: q}))
	if r.Status != bounds.Overflow || r.Finding.Lane < 0 {
		t.Fatalf("status %s (%v), want an overflow with a lane", r.Status, r.Finding)
	}
}

// TestAddOverflows: x + x overflows int16 for x up to 20000, and only
// then.
func TestAddOverflows(t *testing.T) {
	fn, d := compiled(t, func(c *build.Context, f reg.Register) {
		x := c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPADDW(x, x, x)
		c.VPSRAW(U8(1), x, x)
		c.VMOVDQU(x, Mem{Base: f})
	})
	r := bounds.Analyze(fn, d, params(bounds.Interval{Lo: -20000, Hi: 20000}, int16s))
	if r.Status != bounds.Overflow || !strings.HasPrefix(r.Finding.Instr, "VPADDW") && !strings.HasPrefix(r.Finding.Instr, "VPSRAW") {
		t.Fatalf("status %s (%v), want an overflow at VPADDW or its signed read", r.Status, r.Finding)
	}
	r = bounds.Analyze(fn, d, params(bounds.Interval{Lo: -16384, Hi: 16383}, bounds.Interval{Lo: -16384, Hi: 16383}))
	if r.Status != bounds.Proven {
		t.Fatalf("inputs within 15 bits: %s (%v), want proven", r.Status, r.Finding)
	}
}

// TestWrapUsedAsValue: a wrapping low product may only feed a multiply;
// added to a lane it is a finding, unproven (never proven).
func TestWrapUsedAsValue(t *testing.T) {
	fn, d := compiled(t, func(c *build.Context, f reg.Register) {
		k := splat(c, "k", -3327)
		x, t := c.YMM(), c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPMULLW(k, x, t)
		c.VPADDW(t, x, x)
		c.VMOVDQU(x, Mem{Base: f})
	})
	r := bounds.Analyze(fn, d, params(bounds.Interval{Lo: 0, Hi: q - 1}, int16s))
	if r.Status != bounds.Unproven || !strings.Contains(r.Finding.What, "wrapping low product") {
		t.Fatalf("status %s (%v), want the wrapping low product flagged", r.Status, r.Finding)
	}
}

// TestMontgomeryProven: hi(a·z) - hi(q·lo(a·z·q⁻¹)) lies in (-q, q) for
// every int16 a: the low product wraps, and is only read by VPMULHW.
func TestMontgomeryProven(t *testing.T) {
	fn, d := compiled(t, func(c *build.Context, f reg.Register) {
		z, zq, qv := splat(c, "z", 1729), splat(c, "zq", zq1729), splat(c, "q", q)
		a, lo, hi := c.YMM(), c.YMM(), c.YMM()
		c.VMOVDQU(Mem{Base: f}, a)
		c.VPMULLW(zq, a, lo)
		c.VPMULHW(z, a, hi)
		c.VPMULHW(qv, lo, lo)
		c.VPSUBW(lo, hi, hi)
		c.VMOVDQU(hi, Mem{Base: f})
	})
	r := bounds.Analyze(fn, d, params(int16s, bounds.Interval{Lo: -(q - 1), Hi: q - 1}))
	if r.Status != bounds.Proven {
		t.Fatalf("status %s (%v), want proven", r.Status, r.Finding)
	}
}

// TestCanonMinProven: min(x, x-q) as unsigned lanes brings [0, 2q) into
// [0, q): the two operands are one variable, enumerated.
func TestCanonMinProven(t *testing.T) {
	fn, d := compiled(t, func(c *build.Context, f reg.Register) {
		qv := splat(c, "q", q)
		x, t := c.YMM(), c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPSUBW(qv, x, t)
		c.VPMINUW(t, x, x)
		c.VMOVDQU(x, Mem{Base: f})
	})
	r := bounds.Analyze(fn, d, params(bounds.Interval{Lo: 0, Hi: 2*q - 1}, bounds.Interval{Lo: 0, Hi: q - 1}))
	if r.Status != bounds.Proven {
		t.Fatalf("status %s (%v), want proven", r.Status, r.Finding)
	}
	r = bounds.Analyze(fn, d, params(bounds.Interval{Lo: 0, Hi: 2 * q}, bounds.Interval{Lo: 0, Hi: q - 1}))
	if r.Status != bounds.Overflow {
		t.Fatalf("input [0, 2q]: %s (%v), want overflow (2q maps to q)", r.Status, r.Finding)
	}
}

// TestUnmodelledIsUnproven: an instruction the analysis does not model
// makes the function unproven, never proven.
func TestUnmodelledIsUnproven(t *testing.T) {
	fn, d := compiled(t, func(c *build.Context, f reg.Register) {
		x := c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPHADDW(x, x, x)
		c.VMOVDQU(x, Mem{Base: f})
	})
	r := bounds.Analyze(fn, d, params(bounds.Interval{Lo: 0, Hi: 1}, int16s))
	if r.Status != bounds.Unproven || !strings.Contains(r.Finding.What, "VPHADDW") {
		t.Fatalf("status %s (%v), want unproven naming VPHADDW", r.Status, r.Finding)
	}
}

// TestShufflesTrackLanes: lanes moved by a permute keep their own
// bounds: a lane known small moved over a wide one passes the bound.
func TestShufflesTrackLanes(t *testing.T) {
	fn, d := compiled(t, func(c *build.Context, f reg.Register) {
		x := c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPERM2I128(U8(0x01), x, x, x) // swap the halves
		c.VPSHUFD(U8(0x1b), x, x)       // reverse the dwords of each half
		c.VMOVDQU(x, Mem{Base: f})
	})
	r := bounds.Analyze(fn, d, params(bounds.Interval{Lo: 0, Hi: q - 1}, bounds.Interval{Lo: 0, Hi: q - 1}))
	if r.Status != bounds.Proven {
		t.Fatalf("status %s (%v), want proven", r.Status, r.Finding)
	}
}

// TestLoopRunsItsTripCount: a loop with a constant counter runs each
// iteration (here, doubling a lane three times overflows only at the
// third).
func TestLoopRunsItsTripCount(t *testing.T) {
	loop := func(n uint64) func(c *build.Context, f reg.Register) {
		return func(c *build.Context, f reg.Register) {
			x, k := c.YMM(), c.GP64()
			c.VMOVDQU(Mem{Base: f}, x)
			c.MOVQ(U64(n), k)
			c.Label("loop")
			c.VPADDW(x, x, x)
			c.DECQ(k)
			c.JNZ(LabelRef("loop"))
			c.VMOVDQU(x, Mem{Base: f})
		}
	}
	in := bounds.Interval{Lo: 0, Hi: 5000}
	fn, d := compiled(t, loop(2))
	if r := bounds.Analyze(fn, d, params(in, int16s)); r.Status != bounds.Proven || r.Out.Hi != 20000 {
		t.Fatalf("two doublings: %s %v (%v), want proven [0, 20000]", r.Status, r.Out, r.Finding)
	}
	fn, d = compiled(t, loop(3))
	if r := bounds.Analyze(fn, d, params(in, int16s)); r.Status != bounds.Overflow {
		t.Fatalf("three doublings: %s (%v), want overflow", r.Status, r.Finding)
	}
}

// zq1729 is 1729·q⁻¹ mod 2^16, signed.
var zq1729 = func() int16 { z := int32(1729); return int16(z * -3327) }()

// TestMaskedMerge: a masked EVEX instruction writes the elements its
// opmask selects and keeps the others (merging) or zeroes them (Z).
func TestMaskedMerge(t *testing.T) {
	body := func(zeroing bool) func(c *build.Context, f reg.Register) {
		return func(c *build.Context, f reg.Register) {
			x, y, m := c.YMM(), c.YMM(), c.GP32()
			c.VMOVDQU(Mem{Base: f}, x)
			c.VPADDW(x, x, y) // y = 2x
			c.MOVL(U32(0x55), m)
			c.KMOVW(m, reg.K1)
			if zeroing {
				c.VMOVSHDUP_Z(x, reg.K1, y)
			} else {
				c.VMOVSHDUP(x, reg.K1, y)
			}
			c.VMOVDQU(y, Mem{Base: f})
		}
	}
	in := bounds.Interval{Lo: 1, Hi: 10}
	fn, d := compiled(t, body(false))
	if r := bounds.Analyze(fn, d, params(in, bounds.Interval{Lo: 1, Hi: 20})); r.Status != bounds.Proven {
		t.Fatalf("merging: %s (%v), want proven within [1, 20]", r.Status, r.Finding)
	}
	// The unselected dword 1 keeps 2x: lanes 2 and 3 exceed 10.
	r := bounds.Analyze(fn, d, params(in, in))
	if r.Status != bounds.Overflow || r.Finding.Lane != 2 {
		t.Fatalf("merging within [1, 10]: %s (%v), want overflow at lane 2", r.Status, r.Finding)
	}
	fn, d = compiled(t, body(true))
	r = bounds.Analyze(fn, d, params(in, in))
	if r.Status != bounds.Overflow || r.Finding.Lane != 2 || !strings.Contains(r.Finding.What, "[0, 0]") {
		t.Fatalf("zeroing within [1, 10]: %s (%v), want lane 2 zeroed, outside", r.Status, r.Finding)
	}
}

// TestIFMA: VPMADD52HUQ adds the high 52 bits of the 104-bit product,
// VPMADD52LUQ the low ones (exact while the product is below 2^52).
func TestIFMA(t *testing.T) {
	for _, c := range []struct {
		high   bool
		in, hi int64
	}{{true, 1 << 44, 1 << 36}, {false, 1 << 20, 1 << 40}} {
		b := build.NewContext()
		b.Function("f")
		b.SignatureExpr("func(f *[4]int64)")
		f := b.Load(b.Param("f"), b.GP64())
		x, y := b.YMM(), b.YMM()
		b.VMOVDQU(Mem{Base: f}, x)
		b.VPXOR(y, y, y)
		if c.high {
			b.VPMADD52HUQ(x, x, y)
		} else {
			b.VPMADD52LUQ(x, x, y)
		}
		b.VMOVDQU(y, Mem{Base: f})
		b.RET()
		file, err := b.Result()
		if err != nil {
			t.Fatal(err)
		}
		if err := pass.Compile.Execute(file); err != nil {
			t.Fatal(err)
		}
		in, out := bounds.Interval{Lo: 0, Hi: c.in}, bounds.Interval{Lo: 0, Hi: 1<<62 - 1}
		r := bounds.Analyze(file.Functions()[0], bounds.DataOf(file), []bounds.Param{{Name: "f", Elem: 8, Lanes: 4, In: &in, Out: &out}})
		if r.Status != bounds.Proven || r.Out != (bounds.Interval{Lo: 0, Hi: c.hi}) {
			t.Errorf("high %v, x in [0, %d]: %s %v (%v), want proven [0, %d]", c.high, c.in, r.Status, r.Out, r.Finding, c.hi)
		}
	}
}

// TestBisectionReduce32: ML-DSA's x - q·⌊(x + 2^22)/2^23⌋ and the sign
// fix bring x in ±2^26 into [0, q): the input's range is beyond
// enumeration, and branch and bound on it proves the bound exactly.
func TestBisectionReduce32(t *testing.T) {
	const q = 8380417
	b := build.NewContext()
	b.Function("f")
	b.SignatureExpr("func(f *[8]int32)")
	f := b.Load(b.Param("f"), b.GP64())
	c22 := b.StaticGlobal("c22")
	for i := 0; i < 8; i++ {
		b.AddDatum(4*i, U32(1<<22))
	}
	qv := b.StaticGlobal("q")
	for i := 0; i < 8; i++ {
		b.AddDatum(4*i, U32(q))
	}
	x, t1 := b.YMM(), b.YMM()
	b.VMOVDQU(Mem{Base: f}, x)
	b.VPADDD(c22, x, t1)
	b.VPSRAD(U8(23), t1, t1)
	b.VPMULLD(qv, t1, t1)
	b.VPSUBD(t1, x, x)
	b.VPSRAD(U8(31), x, t1)
	b.VPAND(qv, t1, t1)
	b.VPADDD(t1, x, x)
	b.VMOVDQU(x, Mem{Base: f})
	b.RET()
	file, err := b.Result()
	if err != nil {
		t.Fatal(err)
	}
	if err := pass.Compile.Execute(file); err != nil {
		t.Fatal(err)
	}
	in, out := bounds.Interval{Lo: -1 << 26, Hi: 1 << 26}, bounds.Interval{Lo: 0, Hi: q - 1}
	r := bounds.Analyze(file.Functions()[0], bounds.DataOf(file), []bounds.Param{{Name: "f", Elem: 4, Lanes: 8, In: &in, Out: &out}})
	if r.Status != bounds.Proven || r.Out != out {
		t.Fatalf("%s %v (%v), want proven [0, q-1] exactly", r.Status, r.Out, r.Finding)
	}
}
