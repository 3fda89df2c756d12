package bounds_test

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"

	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// TestCenterAbsFlag: the centering x − (q & (x > (q−1)/2)) of canonical
// lanes and their absolute value are proven within [0, (q−1)/2] (the
// compare and the mask enumerated as one variable's), a bound one below
// is an overflow, and the flag computed from a limit of unknown value
// (MOVD of a register, VPCMPGTW, VPTEST, SETNE, MOVBLZX, the result
// slot) touches no lane.
func TestCenterAbsFlag(t *testing.T) {
	c := build.NewContext()
	c.Function("f")
	c.SignatureExpr("func(f *[16]int16, limit int32) uint32")
	f := c.Load(c.Param("f"), c.GP64())
	lim := c.Load(c.Param("limit"), c.GP32())
	x, m, lv := c.YMM(), c.YMM(), c.XMM()
	c.VMOVDQU(Mem{Base: f}, x)
	c.VPCMPGTW(splat(c, "h", (q-1)/2), x, m)
	c.VPAND(splat(c, "q", q), m, m)
	c.VPSUBW(m, x, x)
	c.VPABSW(x, x)
	c.VMOVDQU(x, Mem{Base: f})
	c.MOVD(lim, lv)
	l := c.YMM()
	c.VPBROADCASTD(lv, l)
	c.VPCMPGTD(l, x, m) // pairs of lanes read as dwords: only the flag
	c.VPTEST(m, m)
	b := c.GP8()
	c.SETNE(b)
	r := c.GP32()
	c.MOVBLZX(b, r)
	c.Store(r, c.ReturnIndex(0))
	c.VZEROUPPER()
	c.RET()
	file, err := c.Result()
	if err != nil {
		t.Fatalf("building: %v", err)
	}
	if err := pass.Compile.Execute(file); err != nil {
		t.Fatalf("compiling: %v", err)
	}
	fn, d := file.Functions()[0], bounds.DataOf(file)
	in := bounds.Interval{Lo: 0, Hi: q - 1}
	if r := bounds.Analyze(fn, d, params(in, bounds.Interval{Lo: 0, Hi: (q - 1) / 2})); r.Status != bounds.Proven || r.Out.Hi != (q-1)/2 {
		t.Fatalf("centered absolute values: %s %v (%v), want proven [0, (q-1)/2]", r.Status, r.Out, r.Finding)
	}
	if r := bounds.Analyze(fn, d, params(in, bounds.Interval{Lo: 0, Hi: (q-1)/2 - 1})); r.Status != bounds.Overflow {
		t.Fatalf("centered absolute values within [0, (q-1)/2 - 1]: %s (%v), want overflow", r.Status, r.Finding)
	}
}

// TestComputedOpmask: the AVX-512 centering, a compare into an opmask
// and a subtraction merging-masked by it into its own source, is proven
// within [−(q−1)/2, (q−1)/2]; the same subtraction into another register
// (whose unselected lanes would be that register's) is unproven.
func TestComputedOpmask(t *testing.T) {
	build32 := func(other bool) (*ir.Function, bounds.Data) {
		c := build.NewContext()
		c.Function("f")
		c.SignatureExpr("func(f *[16]int32)")
		f := c.Load(c.Param("f"), c.GP64())
		x, qv, y := c.ZMM(), c.ZMM(), c.ZMM()
		k := c.K()
		c.VMOVDQU32(Mem{Base: f}, x)
		c.VMOVDQU32(wide(c, "q32", q), qv)
		c.VPCMPGTD(wide(c, "h32", (q-1)/2), x, k)
		if other {
			c.VPXORD(y, y, y)
			c.VPSUBD(qv, x, k, y)
			x = y
		} else {
			c.VPSUBD(qv, x, k, x)
		}
		c.VMOVDQU32(x, Mem{Base: f})
		c.VZEROUPPER()
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
	in := bounds.Interval{Lo: 0, Hi: q - 1}
	out := bounds.Interval{Lo: -(q - 1) / 2, Hi: (q - 1) / 2}
	ps := []bounds.Param{{Name: "f", Elem: 4, Lanes: 16, In: &in, Out: &out}}
	fn, d := build32(false)
	if r := bounds.Analyze(fn, d, ps); r.Status != bounds.Proven || r.Out != out {
		t.Fatalf("masked centering: %s %v (%v), want proven %v", r.Status, r.Out, r.Finding, out)
	}
	fn, d = build32(true)
	if r := bounds.Analyze(fn, d, ps); r.Status != bounds.Unproven {
		t.Fatalf("masked centering into another register: %s (%v), want unproven", r.Status, r.Finding)
	}
}

// wide returns a DATA vector of 16 dword copies of v.
func wide(c *build.Context, name string, v int32) Mem {
	m := c.StaticGlobal(name)
	for i := 0; i < 16; i++ {
		c.AddDatum(4*i, U32(uint32(v)))
	}
	return m
}
