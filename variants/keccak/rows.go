package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// rowState keeps one state in zmm registers, row y (lanes x = 0..4) in
// qwords 0..4 of a register; qwords 5..7 hold garbage that never flows into
// qwords 0..4 (every permute index below is in 0..4).
type rowState struct {
	row      [5]int // registers of rows 0..4
	spare    [5]int // registers that receive pi's output rows
	rot      [5]int // rho offsets of row y as a vector
	pi       [5]int // pi's gather indices of output row y
	p1, p2   int    // index vectors x -> x+1, x -> x+2 (mod 5)
	m1       int    // index vector x -> x-1 (mod 5)
	c, d, t1 int
	t2       int
}

// Lane masks for pi's merging permutes: qword 2, 3, 4.
var piMasks = [5]reg.OpmaskPhysical{2: reg.K2, 3: reg.K3, 4: reg.K4}

func z(n int) reg.VecPhysical { return zregs[n] }

func newRowState() *rowState {
	s := &rowState{p1: 25, p2: 26, m1: 27, c: 28, d: 29, t1: 30, t2: 31}
	for y := 0; y < 5; y++ {
		s.row[y], s.spare[y], s.rot[y], s.pi[y] = y, 5+y, 10+y, 15+y
	}
	return s
}

// loadConstants loads the index and rotation vectors and the lane masks.
func (s *rowState) loadConstants() {
	VMOVDQU64(rowConst.Offset(0), z(s.p1))
	VMOVDQU64(rowConst.Offset(64), z(s.p2))
	VMOVDQU64(rowConst.Offset(128), z(s.m1))
	for y := 0; y < 5; y++ {
		VMOVDQU64(rowConst.Offset(192+64*y), z(s.rot[y]))
		VMOVDQU64(rowConst.Offset(512+64*y), z(s.pi[y]))
	}
	for _, km := range []struct {
		bits uint32
		k    reg.OpmaskPhysical
	}{{0x1f, reg.K1}, {1 << 2, reg.K2}, {1 << 3, reg.K3}, {1 << 4, reg.K4}} {
		MOVL(U32(km.bits), reg.EAX)
		KMOVW(reg.EAX, km.k)
	}
}

// theta: C = R0 ^ R1 ^ R2 ^ R3 ^ R4 (the column parities, lane-wise);
// D = perm(C, x-1) ^ (perm(C, x+1) <<< 1); R[y] ^= D.
func (s *rowState) theta() {
	VMOVDQA64(z(s.row[0]), z(s.c))
	VPTERNLOGQ(U8(ternXor3), z(s.row[2]), z(s.row[1]), z(s.c))
	VPTERNLOGQ(U8(ternXor3), z(s.row[4]), z(s.row[3]), z(s.c))
	VPERMQ(z(s.c), z(s.m1), z(s.t1))
	VPERMQ(z(s.c), z(s.p1), z(s.d))
	VPROLQ(U8(1), z(s.d), z(s.d))
	for y := 0; y < 5; y++ {
		VPTERNLOGQ(U8(ternXor3), z(s.d), z(s.t1), z(s.row[y]))
	}
}

// rhoPi: R[y] <<<= r[., y] lane-wise (VPROLVQ); then output row y gathers
// B[x, y] = A[x+3y, x] from row x: one two-source permute of rows 0 and 1,
// then merging permutes bring in rows 2, 3, 4 (qwords 2, 3, 4).
func (s *rowState) rhoPi() {
	for y := 0; y < 5; y++ {
		VPROLVQ(z(s.rot[y]), z(s.row[y]), z(s.row[y]))
	}
	for y := 0; y < 5; y++ {
		w := s.spare[y]
		VMOVDQA64(z(s.row[0]), z(w))
		VPERMT2Q(z(s.row[1]), z(s.pi[y]), z(w))
		for x := 2; x < 5; x++ {
			VPERMT2Q(z(s.row[x]), z(s.pi[y]), piMasks[x], z(w))
		}
	}
	s.row, s.spare = s.spare, s.row
}

// chi: R[y] ^= ^perm(R[y], x+1) & perm(R[y], x+2).
func (s *rowState) chi() {
	for y := 0; y < 5; y++ {
		VPERMQ(z(s.row[y]), z(s.p1), z(s.t1))
		VPERMQ(z(s.row[y]), z(s.p2), z(s.t2))
		VPTERNLOGQ(U8(ternChi), z(s.t2), z(s.t1), z(s.row[y]))
	}
}

// iota: R0 ^= (RC[round], 0, ..., 0).
func (s *rowState) iota(rc Mem, k int) {
	VPXORQ(rc.Offset(64*k), z(s.row[0]), z(s.row[0]))
}

// home moves the rows back to registers 0..4 after an odd number of rounds.
func (s *rowState) home() {
	if s.row[0] == 0 {
		return
	}
	for y := 0; y < 5; y++ {
		VMOVDQA64(z(s.row[y]), z(y))
	}
	s.row, s.spare = s.spare, s.row
}

// load loads row y of the state at a (lanes 5y..5y+4) into qwords 0..4
// of its register (K1 = 0x1f), zeroing qwords 5..7.
func (s *rowState) load(a reg.GPPhysical) {
	for y := 0; y < 5; y++ {
		VMOVDQU64_Z(Mem{Base: a, Disp: 40 * y}, reg.K1, z(s.row[y]))
	}
}

// store stores qwords 0..4 of every row register back to the state at a.
func (s *rowState) store(a reg.GPPhysical) {
	for y := 0; y < 5; y++ {
		VMOVDQU64(z(s.row[y]), reg.K1, Mem{Base: a, Disp: 40 * y})
	}
}

// buildRows emits a single-state AVX-512 variant with rows in zmm registers.
func buildRows(v variant) {
	TEXT(v.symbol(), NOSPLIT, signature(1))
	Doc(fmt.Sprintf("%s computes Keccak-f[1600] on one state, variant %s.", v.symbol(), v.name()))
	a := reg.RDI
	Load(Param("a"), a)
	s := newRowState()
	s.loadConstants()
	s.load(a)
	loop(v, rowRC, 64, roundOf(s), s.home)
	s.store(a)
	VZEROUPPER()
	RET()
}

var rowRC, rowConst Mem

// declareRowTables declares the round constants in qword 0 of 64-byte
// rows and the index and rotation vectors.
func declareRowTables() {
	rowRC = GLOBL("keccakRCRow", RODATA|NOPTR)
	for i, c := range rc {
		for j := 0; j < 8; j++ {
			DATA(64*i+8*j, U64(c*uint64(b2i(j == 0))))
		}
	}
	rowConst = GLOBL("keccakRowConst", RODATA|NOPTR)
	vec := func(off int, f func(x int) int) {
		for x := 0; x < 8; x++ {
			val := 0
			if x < 5 {
				val = f(x)
			}
			DATA(off+8*x, U64(val))
		}
	}
	vec(0, func(x int) int { return (x + 1) % 5 })
	vec(64, func(x int) int { return (x + 2) % 5 })
	vec(128, func(x int) int { return (x + 4) % 5 })
	for y := 0; y < 5; y++ {
		vec(192+64*y, func(x int) int { return rho[lane(x, y)] })
	}
	for y := 0; y < 5; y++ {
		// output row y, qword x comes from row x, qword x+3y; rows 1..4 are
		// the second table of their permute (index + 8).
		vec(512+64*y, func(x int) int { return (x+3*y)%5 + 8*b2i(x > 0) })
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
