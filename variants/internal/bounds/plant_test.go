package bounds_test

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/variants/internal/bounds"
)

func plant(t *testing.T, defect string) bounds.Plant {
	t.Helper()
	for _, p := range bounds.Plants {
		if p.Defect == defect {
			return p
		}
	}
	t.Fatalf("no planted defect %s", defect)
	return bounds.Plant{}
}

// chain emits the subtraction chain of [0, 4q): x = min(x, x-2q),
// x = min(x, x-q) as unsigned lanes.
func chain(c *build.Context, f reg.Register) {
	q2, q1 := splat(c, "q2", 2*q), splat(c, "q1", q)
	x, t := c.YMM(), c.YMM()
	c.VMOVDQU(Mem{Base: f}, x)
	c.VPSUBW(q2, x, t)
	c.VPMINUW(t, x, x)
	c.VPSUBW(q1, x, t)
	c.VPMINUW(t, x, x)
	c.VMOVDQU(x, Mem{Base: f})
}

// TestPlantedDefects: each defect planted on a small function the
// analysis proves is reported as an overflow with a lane and an
// instruction.
func TestPlantedDefects(t *testing.T) {
	canon := bounds.Interval{Lo: 0, Hi: q - 1}
	for _, c := range []struct {
		defect string
		body   func(c *build.Context, f reg.Register)
		in     bounds.Interval
		out    bounds.Interval
	}{
		{"subtract-chain-short", chain, bounds.Interval{Lo: 0, Hi: 4*q - 1}, canon},
		{"reduction-removed", barrett(false), barrettIn, bounds.Interval{Lo: 0, Hi: q}},
		{"lazy-one-layer-too-far", barrett(false), barrettIn, bounds.Interval{Lo: 0, Hi: q}},
		{"input-widened", chain, bounds.Interval{Lo: 0, Hi: 4*q - 1}, canon},
	} {
		fn, d := compiled(t, c.body)
		ps := params(c.in, c.out)
		if r := bounds.Analyze(fn, d, ps); r.Status != bounds.Proven {
			t.Fatalf("%s: the function before planting is %s (%v)", c.defect, r.Status, r.Finding)
		}
		r := bounds.RunPlant(plant(t, c.defect), fn, d, ps)
		if !r.OK() {
			t.Errorf("%s: %s %v (err %v), want an overflow with lane and instruction", c.defect, r.Result.Status, r.Result.Finding, r.Err)
		}
		if r := bounds.Analyze(fn, d, ps); r.Status != bounds.Proven {
			t.Errorf("%s: planting changed the original function: %s", c.defect, r.Status)
		}
	}
}
