package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// A shuf is a shuffle kind with its instruction sequence.
type shuf struct {
	shuffle
	emit func(a, b reg.VecVirtual) (lo, hi reg.VecVirtual)
}

// shuffleKinds returns the shuffles of strategy name ("unpack", "blend",
// "permt2") for g's isa and field, or nil if the strategy does not apply.
func (g *gen) shuffleKinds(name string) []*shuf {
	e := g.f.ebits
	var ks []*shuf
	switch name {
	case "unpack":
		ks = append(ks, g.unpackKind("qdq", 64/e), g.unpackKind("dq", 32/e))
		if e == 16 {
			ks = append(ks, g.unpackKind("wd", 1))
		}
	case "blend":
		ks = append(ks, g.unpackKind("qdq", 64/e), g.blendKind(32))
		if e == 16 {
			ks = append(ks, g.blendKind(16))
		}
	case "permt2":
		if !g.isa.evex {
			return nil
		}
		for p := 0; p < g.laneBits; p++ {
			ks = append(ks, g.permKind(p))
		}
		return ks
	default:
		panic("unknown shuffle strategy " + name)
	}
	return append(ks, g.laneKinds()...)
}

func (g *gen) lane128() int { return 128 / g.f.ebits }

// unpackKind is VPUNPCKL/H{WD,DQ,QDQ}: interleave units of unit elements.
func (g *gen) unpackKind(name string, unit int) *shuf {
	l128 := g.lane128()
	s := &shuf{shuffle: shuffle{name: "unpack" + name, cost: 2, sim: func(a, b []int) ([]int, []int) {
		return unpack(a, b, unit, l128, false), unpack(a, b, unit, l128, true)
	}}}
	s.emit = func(a, b reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) {
		lo, hi := g.vec(), g.vec()
		switch name {
		case "qdq":
			VPUNPCKLQDQ(b, a, lo)
			VPUNPCKHQDQ(b, a, hi)
		case "dq":
			VPUNPCKLDQ(b, a, lo)
			VPUNPCKHDQ(b, a, hi)
		case "wd":
			VPUNPCKLWD(b, a, lo)
			VPUNPCKHWD(b, a, hi)
		}
		return lo, hi
	}
	return s
}

// laneKinds move 128-bit lanes between registers: VPERM2I128 (avx2),
// VSHUFI64X2 (avx512vl: its EVEX form reaches Y16-Y31, which VPERM2I128
// cannot) or VSHUFI64X2 (zmm, two patterns).
func (g *gen) laneKinds() []*shuf {
	l128 := g.lane128()
	mk := func(name string, loSel, hiSel [][2]int, emit func(a, b, lo, hi reg.VecVirtual)) *shuf {
		return &shuf{
			shuffle: shuffle{name: name, cost: 2, sim: func(a, b []int) ([]int, []int) {
				return pick128(a, b, l128, loSel), pick128(a, b, l128, hiSel)
			}},
			emit: func(a, b reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) {
				lo, hi := g.vec(), g.vec()
				emit(a, b, lo, hi)
				return lo, hi
			},
		}
	}
	lo2, hi2 := [][2]int{{0, 0}, {1, 0}}, [][2]int{{0, 1}, {1, 1}}
	if g.isa.evex && !g.isa.zmm() {
		// ymm VSHUFI64X2: imm bit 0 picks a's lane, bit 1 b's lane.
		return []*shuf{mk("shufi128", lo2, hi2,
			func(a, b, lo, hi reg.VecVirtual) {
				VSHUFI64X2(operand.Imm(0x0), b, a, lo)
				VSHUFI64X2(operand.Imm(0x3), b, a, hi)
			})}
	}
	if !g.isa.zmm() {
		return []*shuf{mk("perm2i128", [][2]int{{0, 0}, {1, 0}}, [][2]int{{0, 1}, {1, 1}},
			func(a, b, lo, hi reg.VecVirtual) {
				VPERM2I128(operand.Imm(0x20), b, a, lo)
				VPERM2I128(operand.Imm(0x31), b, a, hi)
			})}
	}
	return []*shuf{
		mk("shufi44", [][2]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}, [][2]int{{0, 2}, {0, 3}, {1, 2}, {1, 3}},
			func(a, b, lo, hi reg.VecVirtual) {
				VSHUFI64X2(operand.Imm(0x44), b, a, lo)
				VSHUFI64X2(operand.Imm(0xEE), b, a, hi)
			}),
		mk("shufi88", [][2]int{{0, 0}, {0, 2}, {1, 0}, {1, 2}}, [][2]int{{0, 1}, {0, 3}, {1, 1}, {1, 3}},
			func(a, b, lo, hi reg.VecVirtual) {
				VSHUFI64X2(operand.Imm(0x88), b, a, lo)
				VSHUFI64X2(operand.Imm(0xDD), b, a, hi)
			}),
	}
}

// blendKind swaps the lane bit of bits-wide units with the register bit by
// a shift and a blend per output (VPBLENDD/VPBLENDW, or masked VPBLENDM*
// with EVEX): lo = blend(a, b << bits), hi = blend(a >> bits, b).
func (g *gen) blendKind(bits int) *shuf {
	p := trailing(bits / g.f.ebits)
	s := &shuf{shuffle: shuffle{name: fmt.Sprintf("blend%d", bits), cost: 4,
		sim: func(a, b []int) ([]int, []int) { return swapBit(a, b, p) }}}
	s.emit = func(a, b reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) {
		lo, hi := g.vec(), g.vec()
		if bits == 32 {
			VPSLLQ(operand.Imm(32), b, lo)
			VPSRLQ(operand.Imm(32), a, hi)
		} else {
			VPSLLD(operand.Imm(16), b, lo)
			VPSRLD(operand.Imm(16), a, hi)
		}
		g.blendOdd(lo, a, lo, bits)
		g.blendOdd(b, hi, hi, bits)
		return lo, hi
	}
	return s
}

// blendOdd sets dst to x's odd units and y's even units (units of bits).
func (g *gen) blendOdd(x, y, dst reg.VecVirtual, bits int) {
	switch {
	case g.isa.evex && bits == 32:
		VPBLENDMD(x, y, g.kmask(0xAAAA, 32), dst)
	case g.isa.evex:
		VPBLENDMW(x, y, g.kmask(0xAAAAAAAA, 16), dst)
	case bits == 32:
		VPBLENDD(operand.Imm(0xAA), x, y, dst)
	default:
		VPBLENDW(operand.Imm(0xAA), x, y, dst)
	}
}

// permKind swaps lane bit p with the register bit by two-source permutes
// (VPERMI2W / VPERMI2D) whose index vectors come from the constant table.
func (g *gen) permKind(p int) *shuf {
	L := g.lanes
	loIdx, hiIdx := make([]int64, L), make([]int64, L)
	for l := range L {
		if l>>p&1 == 0 {
			loIdx[l], hiIdx[l] = int64(l), int64(l|1<<p)
		} else {
			loIdx[l], hiIdx[l] = int64(L+l&^(1<<p)), int64(L+l)
		}
	}
	s := &shuf{shuffle: shuffle{name: fmt.Sprintf("permt2bit%d", p), cost: 2,
		sim: func(a, b []int) ([]int, []int) { return swapBit(a, b, p) }}}
	s.emit = func(a, b reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) {
		return g.permPair(a, b, loIdx, hiIdx)
	}
	return s
}

// permPair returns the two-source permutes of a and b (VPERMI2W/D) by the
// index vectors lo and hi (index < lanes: from a, else from b). Index
// vectors stay in registers when the isa has room (see idxReg).
func (g *gen) permPair(a, b reg.VecVirtual, lo, hi []int64) (reg.VecVirtual, reg.VecVirtual) {
	out := [2]reg.VecVirtual{}
	for i, idx := range [][]int64{lo, hi} {
		out[i] = g.vec()
		m := g.consts.vector(idx, g.f.ebits, g.isa.bytes)
		if r, ok := g.idxReg(m); ok {
			if g.isa.evex {
				VMOVDQA64(r, out[i])
			} else {
				VMOVDQA(r, out[i])
			}
		} else {
			out[i] = g.load(m)
		}
		if g.f.ebits == 16 {
			VPERMI2W(b, a, out[i])
		} else {
			VPERMI2D(b, a, out[i])
		}
	}
	return out[0], out[1]
}

// idxReg returns a register holding the permute index vector at m, loaded
// once per function, while the register budget (idxBudget) lasts.
func (g *gen) idxReg(m operand.Mem) (reg.VecVirtual, bool) {
	if r, ok := g.idx[m.Disp]; ok {
		return r, true
	}
	if len(g.idx) >= g.idxBudget {
		return nil, false
	}
	r := g.load(m)
	g.idx[m.Disp] = r
	return r, true
}
