package bounds_test

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"

	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// barrett52Fn emits IFMA's Barrett of the 4 int64 lanes p of f:
// p − q·hi52(p·⌊2^52/q⌋) (VPMADD52HUQ into a zeroed register, VPMULUDQ,
// VPSUBQ); other quotients t of p+1, acc t's accumulator start.
func barrett52Fn(t *testing.T, other bool, acc uint64) *bounds.Result {
	b := build.NewContext()
	b.Function("f")
	b.SignatureExpr("func(f *[4]int64)")
	f := b.Load(b.Param("f"), b.GP64())
	splat := func(name string, v uint64) Mem {
		m := b.StaticGlobal(name)
		for i := 0; i < 4; i++ {
			b.AddDatum(8*i, U64(v))
		}
		return m
	}
	vv, qv, av, one := splat("v", (1<<52)/dq), splat("q", dq), splat("acc", acc), splat("one", 1)
	p, tt, s := b.YMM(), b.YMM(), b.YMM()
	b.VMOVDQU(Mem{Base: f}, p)
	src := p
	if other {
		src = b.YMM()
		b.VPADDQ(one, p, src)
	}
	b.VMOVDQU(av, tt)
	b.VPMADD52HUQ(vv, src, tt)
	b.VPMULUDQ(qv, tt, s)
	b.VPSUBQ(s, p, p)
	b.VMOVDQU(p, Mem{Base: f})
	b.RET()
	file, err := b.Result()
	if err != nil {
		t.Fatal(err)
	}
	if err := pass.Compile.Execute(file); err != nil {
		t.Fatal(err)
	}
	in, out := bounds.Interval{Lo: 0, Hi: (dq - 1) * (dq - 1)}, bounds.Interval{Lo: 0, Hi: 2*dq - 1}
	r := bounds.Analyze(file.Functions()[0], bounds.DataOf(file), []bounds.Param{{Name: "f", Elem: 8, Lanes: 4, In: &in, Out: &out}})
	return &r
}

// TestBarrett52Proven: IFMA's Barrett of a product below q² is proven
// in [0, 2q) by the identity; with the quotient of another lane or an
// accumulator not zero, it is not.
func TestBarrett52Proven(t *testing.T) {
	if r := barrett52Fn(t, false, 0); r.Status != bounds.Proven {
		t.Fatalf("status %s (%v), want proven", r.Status, r.Finding)
	}
	for _, c := range []struct {
		other bool
		acc   uint64
	}{{true, 0}, {false, 1}} {
		if r := barrett52Fn(t, c.other, c.acc); r.Status == bounds.Proven {
			t.Errorf("other lane %v, accumulator %d: proven, want not", c.other, c.acc)
		}
	}
}

// ifma2Fn emits mul=ifma2's remainder of the 4 int64 lanes p of f into
// the 8 dwords of g: t = hi52(p·⌊2^52/q⌋), p + lo52(t·(2^52 − q)); if
// other, accumulated into p+1 instead of p.
func ifma2Fn(t *testing.T, other bool) bounds.Result {
	b := build.NewContext()
	b.Function("f")
	b.SignatureExpr("func(f *[4]int64, g *[8]int32)")
	f, g := b.Load(b.Param("f"), b.GP64()), b.Load(b.Param("g"), b.GP64())
	splat := func(name string, v uint64) Mem {
		m := b.StaticGlobal(name)
		for i := 0; i < 4; i++ {
			b.AddDatum(8*i, U64(v))
		}
		return m
	}
	vv, cv, one := splat("v", (1<<52)/dq), splat("c", 1<<52-dq), splat("one", 1)
	p, tt := b.YMM(), b.YMM()
	b.VMOVDQU(Mem{Base: f}, p)
	b.VPXOR(tt, tt, tt)
	b.VPMADD52HUQ(vv, p, tt)
	if other {
		b.VPADDQ(one, p, p)
	}
	b.VPMADD52LUQ(cv, tt, p)
	b.VMOVDQU(p, Mem{Base: g})
	b.RET()
	file, err := b.Result()
	if err != nil {
		t.Fatal(err)
	}
	if err := pass.Compile.Execute(file); err != nil {
		t.Fatal(err)
	}
	in, out := bounds.Interval{Lo: 0, Hi: (dq - 1) * (dq - 1)}, bounds.Interval{Lo: 0, Hi: 1 << 24}
	return bounds.Analyze(file.Functions()[0], bounds.DataOf(file), []bounds.Param{
		{Name: "f", Elem: 8, Lanes: 4, In: &in},
		{Name: "g", Elem: 4, Lanes: 8, Out: &out},
	})
}

// TestIFMA2Proven: mul=ifma2's low dwords are proven (the remainder in
// [0, 2q), the high dwords below 2^21); accumulated into another lane
// than the quotient's, they are not.
func TestIFMA2Proven(t *testing.T) {
	r := ifma2Fn(t, false)
	if r.Status != bounds.Proven {
		t.Fatalf("status %s (%v), want proven", r.Status, r.Finding)
	}
	for j := 0; j < 8; j += 2 {
		if l := r.Lanes["g"][j]; l.Lo < 0 || l.Hi >= 2*dq {
			t.Errorf("g[%d] in %v, want within [0, 2q)", j, l)
		}
	}
	if r := ifma2Fn(t, true); r.Status == bounds.Proven {
		t.Errorf("accumulated into p+1: proven, want not")
	}
}
