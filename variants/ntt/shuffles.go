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

// shuffleKinds returns the shuffles of strategy name for g's isa and
// field, or nil if the strategy does not apply.
func (g *gen) shuffleKinds(name shufKnob) []*shuf {
	e := g.f.ebits
	var ks []*shuf
	switch name {
	case shufUnpack:
		ks = append(ks, g.unpackKind("qdq", 64/e), g.unpackKind("dq", 32/e))
		if e == 16 {
			ks = append(ks, g.unpackKind("wd", 1))
		}
	case shufBlend:
		ks = append(ks, g.unpackKind("qdq", 64/e), g.blendKind(32))
		if e == 16 {
			ks = append(ks, g.blendKind(16))
		}
	case shufPermt2, shufVBMI:
		if !g.isa.evex {
			return nil
		}
		kind := g.permKind
		if name == shufVBMI {
			kind = g.vbmiKind
		}
		for p := 0; p < g.laneBits; p++ {
			ks = append(ks, kind(p))
		}
		return ks
	case shufShufps:
		// 32-bit granular only: the word bit of 16-bit lanes (ML-KEM index
		// bit 0, never a butterfly bit since minLen = 2) stays in place.
		ks = append(ks, g.shufpsKind("shufps64", 0x44, 0xEE), g.shufpsKind("shufps32", 0x88, 0xDD),
			g.dupBlendKind())
	default:
		panic("unknown shuffle strategy " + string(name))
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

// swapBitIndexes returns the two-source permute index vectors (over L
// lanes; indexes L.. select the second source) that exchange lane bit p
// with the register bit: lo gathers the pairs' bit-p-clear lanes, hi the
// set ones.
func swapBitIndexes(L, p int) (loIdx, hiIdx []int64) {
	loIdx, hiIdx = make([]int64, L), make([]int64, L)
	for l := range L {
		if l>>p&1 == 0 {
			loIdx[l], hiIdx[l] = int64(l), int64(l|1<<p)
		} else {
			loIdx[l], hiIdx[l] = int64(L+l&^(1<<p)), int64(L+l)
		}
	}
	return loIdx, hiIdx
}

// permKind swaps lane bit p with the register bit by two-source permutes
// (VPERMI2W / VPERMI2D) whose index vectors come from the constant table.
func (g *gen) permKind(p int) *shuf {
	loIdx, hiIdx := swapBitIndexes(g.lanes, p)
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
	return g.permPairOp(a, b, lo, hi, false)
}

// byteIdx turns a lane permutation index vector into the byte index vector
// of VPERMB/VPERMI2B doing the same permutation: lane l taking lane s
// becomes bytes l·w+e taking s·w+e (w bytes per lane); two-source indices
// stay two-source, since s·w+e < vector bytes exactly when s < lanes.
func (g *gen) byteIdx(idx []int64) []int64 {
	w := g.f.ebits / 8
	out := make([]int64, 0, len(idx)*w)
	for _, s := range idx {
		for e := range w {
			out = append(out, s*int64(w)+int64(e))
		}
	}
	return out
}

// permPairOp is permPair with VPERMI2B byte permutes when vbmi is set.
func (g *gen) permPairOp(a, b reg.VecVirtual, lo, hi []int64, vbmi bool) (reg.VecVirtual, reg.VecVirtual) {
	out := [2]reg.VecVirtual{}
	for i, idx := range [][]int64{lo, hi} {
		out[i] = g.vec()
		var m operand.Mem
		if vbmi {
			m = g.consts.vector(g.byteIdx(idx), 8, g.isa.bytes)
		} else {
			m = g.consts.vector(idx, g.f.ebits, g.isa.bytes)
		}
		if r, ok := g.idxReg(m); ok {
			if g.isa.evex {
				VMOVDQA64(r, out[i])
			} else {
				VMOVDQA(r, out[i])
			}
		} else {
			out[i] = g.load(m)
		}
		switch {
		case vbmi:
			VPERMI2B(b, a, out[i])
		case g.f.ebits == 16:
			VPERMI2W(b, a, out[i])
		default:
			VPERMI2D(b, a, out[i])
		}
	}
	return out[0], out[1]
}

// permOne permutes the lanes of a by idx (lane l takes lane idx[l]) with
// one single-source VPERMB.
func (g *gen) permOne(a reg.VecVirtual, idx []int64) reg.VecVirtual {
	m := g.consts.vector(g.byteIdx(idx), 8, g.isa.bytes)
	r, ok := g.idxReg(m)
	if !ok {
		r = g.load(m)
	}
	out := g.vec()
	VPERMB(a, r, out)
	return out
}

// vbmiKind swaps lane bit p with the register bit by two-source byte
// permutes (VPERMI2B, AVX512_VBMI) whose byte index vectors are derived
// from the word/dword permutation of permKind.
func (g *gen) vbmiKind(p int) *shuf {
	loIdx, hiIdx := swapBitIndexes(g.lanes, p)
	s := &shuf{shuffle: shuffle{name: fmt.Sprintf("vpermi2bbit%d", p), cost: 2,
		sim: func(a, b []int) ([]int, []int) { return swapBit(a, b, p) }}}
	s.emit = func(a, b reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) {
		return g.permPairOp(a, b, loIdx, hiIdx, true)
	}
	return s
}

// shufpsKind is a VSHUFPS pair on 32-bit units: per 128-bit lane, lo takes
// a's units loImm[1:0], loImm[3:2] and b's units loImm[5:4], loImm[7:6];
// hi likewise by hiImm. 0x44/0xEE exchange 64-bit halves (the lane bit of
// the qword with the register bit); 0x88/0xDD gather even and odd dwords
// (a 3-cycle: dword bit 0 to the register bit, the register bit to qword
// bit, the qword bit to dword bit 0).
func (g *gen) shufpsKind(name string, loImm, hiImm uint8) *shuf {
	unit, l128 := 32/g.f.ebits, g.lane128()
	s := &shuf{shuffle: shuffle{name: name, cost: 2, sim: func(a, b []int) ([]int, []int) {
		return shufps(a, b, loImm, unit, l128), shufps(a, b, hiImm, unit, l128)
	}}}
	s.emit = func(a, b reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) {
		lo, hi := g.vec(), g.vec()
		VSHUFPS(operand.U8(loImm), b, a, lo)
		VSHUFPS(operand.U8(hiImm), b, a, hi)
		return lo, hi
	}
	return s
}

// shufps simulates VSHUFPS on lane arrays with unit elements per dword.
func shufps(a, b []int, imm uint8, unit, lane128 int) []int {
	out := make([]int, len(a))
	for base := 0; base < len(a); base += lane128 {
		for i := range 4 {
			src := a
			if i >= 2 {
				src = b
			}
			sel := int(imm >> (2 * i) & 3)
			copy(out[base+i*unit:base+(i+1)*unit], src[base+sel*unit:base+(sel+1)*unit])
		}
	}
	return out
}

// dupBlendKind swaps dword bit 0 with the register bit by a dword
// duplicate (VMOVSLDUP/VMOVSHDUP) and a VPBLENDD (masked VPBLENDMD with
// EVEX, which reaches all 32 registers) per output:
// lo = blend(a, sldup(b)), hi = blend(shdup(a), b).
func (g *gen) dupBlendKind() *shuf {
	p := trailing(32 / g.f.ebits)
	s := &shuf{shuffle: shuffle{name: "dupblend32", cost: 4,
		sim: func(a, b []int) ([]int, []int) { return swapBit(a, b, p) }}}
	s.emit = func(a, b reg.VecVirtual) (reg.VecVirtual, reg.VecVirtual) {
		lo, hi := g.vec(), g.vec()
		VMOVSLDUP(b, lo)
		VMOVSHDUP(a, hi)
		g.blendOdd(lo, a, lo, 32)
		g.blendOdd(b, hi, hi, 32)
		return lo, hi
	}
	return s
}

// idxReg returns a register holding the permute index vector at m, loaded
// once per function, while the register budget (idxBudget) lasts.
func (g *gen) idxReg(m operand.Mem) (reg.VecVirtual, bool) {
	if r, ok := g.idx[m]; ok {
		return r, true
	}
	if len(g.idx) >= g.idxBudget {
		return nil, false
	}
	r := g.load(m)
	g.idx[m] = r
	return r, true
}
