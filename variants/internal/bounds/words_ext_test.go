package bounds_test

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// compiledWords is compiled for func(h *[3]uint64, m []byte): body gets
// h's pointer, the message pointer and its length.
func compiledWords(t *testing.T, body func(c *build.Context, hp, mp, n reg.Register)) (*ir.Function, bounds.Data) {
	t.Helper()
	c := build.NewContext()
	c.Function("f")
	c.SignatureExpr("func(h *[3]uint64, m []byte)")
	hp := c.Load(c.Param("h"), c.GP64())
	mp := c.Load(c.Param("m").Base(), c.GP64())
	n := c.Load(c.Param("m").Len(), c.GP64())
	body(c, hp, mp, n)
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

// wordsContract: h[2] < 8 in and out, any message.
func wordsContract() contract.WordFunc {
	h := []contract.Word{contract.AnyWord, contract.AnyWord, {Lo: 0, Hi: 7}}
	return contract.WordFunc{Kind: "test", Args: []contract.WordArg{{Name: "h", In: h, Out: h}, {Name: "m", Bytes: true}}}
}

// loopOver emits a loop over the 16-byte blocks at mp (n bytes): each
// iteration runs block with the block's address.
func loopOver(c *build.Context, mp, n reg.Register, block func(b Mem)) {
	c.CMPQ(n, U8(16))
	c.JB(LabelRef("done"))
	c.Label("loop")
	block(Mem{Base: mp})
	c.ADDQ(U8(16), mp)
	c.SUBQ(U8(16), n)
	c.CMPQ(n, U8(16))
	c.JAE(LabelRef("loop"))
	c.Label("done")
}

// TestWordsLoopInduction: a loop adding every block's top bit into h[2]
// and reducing it (h[2] &= 3) keeps the contract whatever the length
// (proven, h[2] ≤ 7); without the reduction h[2] grows by one per block,
// within h[2] < 8 for up to 7 blocks, but the length is unknown: an
// overflow (the invariant widens until h[2]'s addition may carry out of
// 64 bits), never proven by running a few iterations.
func TestWordsLoopInduction(t *testing.T) {
	for _, reduce := range []bool{true, false} {
		fn, d := compiledWords(t, func(c *build.Context, hp, mp, n reg.Register) {
			h0, h1, h2 := c.GP64(), c.GP64(), c.GP64()
			c.MOVQ(Mem{Base: hp}, h0)
			c.MOVQ(Mem{Base: hp, Disp: 8}, h1)
			c.MOVQ(Mem{Base: hp, Disp: 16}, h2)
			loopOver(c, mp, n, func(b Mem) {
				c.ADDQ(b, h0)
				c.ADCQ(b.Offset(8), h1)
				c.ADCQ(U8(1), h2)
				if reduce {
					c.ANDQ(U8(3), h2)
				}
			})
			c.MOVQ(h0, Mem{Base: hp})
			c.MOVQ(h1, Mem{Base: hp, Disp: 8})
			c.MOVQ(h2, Mem{Base: hp, Disp: 16})
		})
		r := bounds.AnalyzeWords(fn, d, wordsContract())
		switch {
		case reduce && (r.Status != bounds.Proven || r.Out != (bounds.Interval{Lo: 0, Hi: 7})):
			t.Errorf("reduced: %s %v (%v), want proven [0, 7]", r.Status, r.Out, r.Finding)
		case !reduce && (r.Status != bounds.Overflow || !strings.HasPrefix(r.Finding.Instr, "ADCQ $0x01") && !strings.Contains(r.Finding.What, "output h[2]")):
			t.Errorf("unreduced: %s (%v), want an overflow of h[2] or its carry", r.Status, r.Finding)
		}
	}
}

// TestWordsLostCarry: a carry chain whose last carry may be set and is
// then overwritten (h[2] dropped from the chain) is an overflow at the
// addition that produced it; consumed by an ADCQ it is proven.
func TestWordsLostCarry(t *testing.T) {
	for _, chain := range []bool{true, false} {
		fn, d := compiledWords(t, func(c *build.Context, hp, mp, n reg.Register) {
			h0, h1, h2 := c.GP64(), c.GP64(), c.GP64()
			c.MOVQ(Mem{Base: hp}, h0)
			c.MOVQ(Mem{Base: hp, Disp: 8}, h1)
			c.MOVQ(Mem{Base: hp, Disp: 16}, h2)
			c.ANDQ(U8(3), h2)
			loopOver(c, mp, n, func(b Mem) {
				c.ADDQ(b, h0)
				c.ADCQ(b.Offset(8), h1)
				if chain {
					c.ADCQ(U8(0), h2)
					c.ANDQ(U8(3), h2)
				}
			})
			c.MOVQ(h0, Mem{Base: hp})
			c.MOVQ(h1, Mem{Base: hp, Disp: 8})
			c.MOVQ(h2, Mem{Base: hp, Disp: 16})
		})
		r := bounds.AnalyzeWords(fn, d, wordsContract())
		switch {
		case chain && r.Status != bounds.Proven:
			t.Errorf("chained: %s (%v), want proven", r.Status, r.Finding)
		case !chain && (r.Status != bounds.Overflow || !strings.Contains(r.Finding.What, "carry") || !strings.HasPrefix(r.Finding.Instr, "ADCQ")):
			t.Errorf("carry dropped: %s (%v), want a lost carry at the ADCQ", r.Status, r.Finding)
		}
	}
}

// TestWordsVectorInduction: a vector limb that accumulates a masked
// 26-bit message limb per iteration and is carried (limb & 2^26−1 plus
// its carry, below 2^27) feeds VPMULUDQ each
// iteration: proven; without the carry it grows past 32 bits, which only
// the induction sees (2^26 per iteration): an overflow at the VPMULUDQ
// with its lane.
func TestWordsVectorInduction(t *testing.T) {
	for _, carry := range []bool{true, false} {
		fn, d := compiledWords(t, func(c *build.Context, hp, mp, n reg.Register) {
			acc, mask, x, p, cy := c.YMM(), c.YMM(), c.YMM(), c.YMM(), c.YMM()
			k := c.GP64()
			c.MOVQ(U64(1<<26-1), k)
			c.VPBROADCASTQ(k, mask)
			c.VPXOR(acc, acc, acc)
			loopOver(c, mp, n, func(b Mem) {
				c.VPBROADCASTQ(b, x)
				c.VPAND(mask, x, x)
				c.VPMULUDQ(mask, acc, p) // acc·(2^26−1): acc must stay below 2^32
				c.VPADDQ(x, acc, acc)
				if carry {
					c.VPSRLQ(U8(26), acc, cy)
					c.VPAND(mask, acc, acc)
					c.VPADDQ(cy, acc, acc)
				}
			})
			c.VZEROUPPER()
		})
		r := bounds.AnalyzeWords(fn, d, wordsContract())
		switch {
		case carry && r.Status != bounds.Proven:
			t.Errorf("carried: %s (%v), want proven", r.Status, r.Finding)
		case !carry && (r.Status != bounds.Overflow || r.Finding.Lane < 0 || !strings.HasPrefix(r.Finding.Instr, "VPMULUDQ")):
			t.Errorf("uncarried: %s (%v), want an overflow at the VPMULUDQ", r.Status, r.Finding)
		}
	}
}
