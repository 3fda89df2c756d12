package vecgen

import (
	"encoding/binary"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// A Gen emits one function of a tier: the tier and the table its constant
// vectors go to. The generators' own gen types embed it.
type Gen struct {
	ISA    *ISA
	Consts *Consts
}

// Splat returns the address of a vector of the tier with the 32-bit value
// v in every lane.
func (g *Gen) Splat(v uint32) operand.Mem { return g.Lanes32(v) }

// Lanes16 returns the address of a vector of the tier repeating the 16-bit
// lanes p; Lanes32 and Lanes64 the same for 32-bit and 64-bit lanes.
func (g *Gen) Lanes16(p ...uint16) operand.Mem { return repeat(g, p) }

// Lanes32 is Lanes16 for 32-bit lanes.
func (g *Gen) Lanes32(p ...uint32) operand.Mem { return repeat(g, p) }

// Lanes64 is Lanes16 for 64-bit lanes.
func (g *Gen) Lanes64(p ...uint64) operand.Mem { return repeat(g, p) }

// repeat returns the address of a vector of g's tier whose lanes, of p's
// element size, repeat p, little-endian.
func repeat[T uint16 | uint32 | uint64](g *Gen, p []T) operand.Mem {
	var b []byte
	for i := range g.ISA.Bytes / binary.Size(p[0]) {
		b, _ = binary.Append(b, binary.LittleEndian, p[i%len(p)])
	}
	return g.Consts.Bytes(b)
}

// AndD, AndQ, OrD, OrQ, XorD and XorQ emit the bitwise operations in the
// tier's encoding: the VEX form (VPAND, VPOR, VPXOR) on ymm; on zmm the
// EVEX form per dword (D: VPANDD, ...) or per quadword (Q: VPANDQ, ...),
// which compute the same but encode differently.
func (s *ISA) AndD(a, b, dst operand.Op) { s.bitwise(VPAND, VPANDD, a, b, dst) }

// AndQ: see AndD.
func (s *ISA) AndQ(a, b, dst operand.Op) { s.bitwise(VPAND, VPANDQ, a, b, dst) }

// OrD: see AndD.
func (s *ISA) OrD(a, b, dst operand.Op) { s.bitwise(VPOR, VPORD, a, b, dst) }

// OrQ: see AndD.
func (s *ISA) OrQ(a, b, dst operand.Op) { s.bitwise(VPOR, VPORQ, a, b, dst) }

// XorD: see AndD.
func (s *ISA) XorD(a, b, dst operand.Op) { s.bitwise(VPXOR, VPXORD, a, b, dst) }

// XorQ: see AndD.
func (s *ISA) XorQ(a, b, dst operand.Op) { s.bitwise(VPXOR, VPXORQ, a, b, dst) }

// bitwise emits vex(a, b, dst) on ymm, evex(a, b, dst) on zmm.
func (s *ISA) bitwise(vex func(a, b, dst operand.Op), evex func(...operand.Op), a, b, dst operand.Op) {
	if s.EVEX() {
		evex(a, b, dst)
	} else {
		vex(a, b, dst)
	}
}

// Zero returns a fresh vector register of the tier, zeroed (XorD).
func (s *ISA) Zero() reg.VecVirtual {
	z := s.Vec()
	s.XorD(z, z, z)
	return z
}

// A Step is a pointer and the bytes it advances per loop iteration.
type Step struct {
	p reg.GPVirtual
	n int
}

// Stride returns the Step of p advancing by n bytes.
func Stride(p reg.GPVirtual, n int) Step { return Step{p, n} }

// Loop emits a counted loop of trips iterations headed by label: body(u)
// for each u < unroll, then every pointer's step, then the count down.
func Loop(label string, trips, unroll int, body func(u int), steps ...Step) {
	n := GP64()
	MOVQ(operand.U64(uint64(trips)), n)
	Label(label)
	for u := range unroll {
		body(u)
	}
	for _, s := range steps {
		ADDQ(operand.U32(uint64(s.n)), s.p)
	}
	DECQ(n)
	JNZ(operand.LabelRef(label))
}

// Ptr loads the pointer parameter name into a fresh register.
func Ptr(name string) reg.GPVirtual {
	r := GP64()
	Load(Param(name), r)
	return r
}

// Ptrs loads the pointer parameters names into fresh registers, in order.
func Ptrs(names ...string) []reg.GPVirtual {
	var out []reg.GPVirtual
	for _, name := range names {
		out = append(out, Ptr(name))
	}
	return out
}

// End finishes a function: VZEROUPPER, RET.
func End() {
	VZEROUPPER()
	RET()
}
