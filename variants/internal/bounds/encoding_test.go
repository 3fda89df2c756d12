package bounds_test

import (
	"testing"

	"github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// packQwords emits the packing's truncating shift on the qwords of f (4
// of them): x | x << 56, then stored, or, if used, added to itself first
// (read as a value).
func packQwords(used bool) func(c *build.Context, f reg.Register) {
	return func(c *build.Context, f reg.Register) {
		x, y := c.YMM(), c.YMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VPSLLQ(U8(56), x, y) // bits beyond 64 dropped
		c.VPOR(y, x, x)
		if used {
			c.VPADDQ(x, x, x)
		}
		c.VMOVDQU(x, Mem{Base: f})
		c.VZEROUPPER()
	}
}

// TestTruncatingShiftOnlyIntoEncodings: a VPSLLQ of non-negative qwords
// (fields in [0, 4095]) whose bits leave the 64 is the packing's
// intended truncation: ORed and stored into an encoding (every pattern
// of the lanes written) it is proven; the same store as values (the
// same bound, no encoding) is an overflow, and so is the truncated qword
// added, at the addition.
func TestTruncatingShiftOnlyIntoEncodings(t *testing.T) {
	in := bounds.Interval{Lo: 0, Hi: 4095}
	all := bounds.Interval{Lo: -1 << 63, Hi: 1<<63 - 1}
	enc := func(encoding bool) []bounds.Param {
		return []bounds.Param{{Name: "f", Elem: 8, Lanes: 4, In: &in, Out: &all, Encoding: encoding}}
	}
	fn, d := compiled(t, packQwords(false))
	if r := bounds.Analyze(fn, d, enc(true)); r.Status != bounds.Proven {
		t.Fatalf("truncated qwords stored to an encoding: %s (%v), want proven", r.Status, r.Finding)
	}
	if r := bounds.Analyze(fn, d, enc(false)); r.Status != bounds.Overflow {
		t.Fatalf("truncated qwords stored as values: %s (%v), want overflow", r.Status, r.Finding)
	}
	fn, d = compiled(t, packQwords(true))
	if r := bounds.Analyze(fn, d, enc(true)); r.Status != bounds.Overflow || r.Finding.Instr[:6] != "VPADDQ" {
		t.Fatalf("a truncated qword added: %s (%v), want an overflow at the VPADDQ", r.Status, r.Finding)
	}
}

// TestEncodingWrittenLanes: an encoding's bound covers the lanes the
// function writes (16 of 32 here); a function that writes none of them
// is not proven, and a parameter that is no encoding must have every
// lane written.
func TestEncodingWrittenLanes(t *testing.T) {
	anyByte := bounds.Interval{Lo: -128, Hi: 127}
	fn, d := compiled(t, func(c *build.Context, f reg.Register) {
		x := c.XMM()
		c.VMOVDQU(Mem{Base: f}, x)
		c.VMOVDQU(x, Mem{Base: f, Disp: 16})
	})
	out := func(encoding bool) []bounds.Param {
		return []bounds.Param{{Name: "f", Elem: 1, Lanes: 48, In: &anyByte, Out: &anyByte, Encoding: encoding}}
	}
	if r := bounds.Analyze(fn, d, out(true)); r.Status != bounds.Proven || len(r.Lanes["f"]) != 16 {
		t.Fatalf("an encoding of 16 written bytes: %s, %d lanes (%v), want proven, 16", r.Status, len(r.Lanes["f"]), r.Finding)
	}
	if r := bounds.Analyze(fn, d, out(false)); r.Status != bounds.Proven || len(r.Lanes["f"]) != 48 {
		t.Fatalf("every byte an output: %s, %d lanes (%v), want proven, 48 (the input bytes kept)", r.Status, len(r.Lanes["f"]), r.Finding)
	}
}
