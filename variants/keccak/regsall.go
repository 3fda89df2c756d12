package main

import . "github.com/mmcloughlin/avo/operand"

// allState keeps all 25 lane vectors in registers (AVX-512: 32 registers).
// lane[i] is the register holding lane i; rho-pi renames registers instead
// of moving data, so the mapping changes every round and is restored at the
// end of each loop iteration (a no-op after 24 rounds: pi has order 24).
type allState struct {
	*vgen
	lane [25]int
}

// theta: C[x] = A[x,0] ^ A[x,1] ^ A[x,2] ^ A[x,3] ^ A[x,4];
// D[x] = C[x-1] ^ (C[x+1] <<< 1); A[x,y] ^= D[x].
func (s *allState) theta() {
	var c [5]int
	for x := range c {
		c[x] = s.p.alloc()
		a := func(y int) int { return s.lane[lane(x, y)] }
		if s.v.chi == "ternlog" {
			s.mov(c[x], a(0))
			s.tern(ternXor3, c[x], a(1), a(2))
			s.tern(ternXor3, c[x], a(3), a(4))
			continue
		}
		s.xor(c[x], a(0), a(1))
		for y := 2; y < 5; y++ {
			s.xor(c[x], c[x], a(y))
		}
	}
	for x := 0; x < 5; x++ {
		d := s.p.alloc()
		s.rol(d, c[(x+1)%5], 1)
		if s.v.chi != "ternlog" {
			s.xor(d, d, c[(x+4)%5])
		}
		for y := 0; y < 5; y++ {
			l := s.lane[lane(x, y)]
			if s.v.chi == "ternlog" {
				s.tern(ternXor3, l, c[(x+4)%5], d)
			} else {
				s.xor(l, l, d)
			}
		}
		s.p.release(d)
	}
	s.p.release(c[:]...)
}

// rhoPi: B[y, 2x+3y] = A[x,y] <<< r[x,y]; the move is a register renaming.
func (s *allState) rhoPi() {
	var next [25]int
	for i := 0; i < 25; i++ {
		s.rol(s.lane[i], s.lane[i], rho[i])
		next[piDest(i)] = s.lane[i]
	}
	s.lane = next
}

// chi: A[x,y] = B[x,y] ^ (^B[x+1,y] & B[x+2,y]), in place per row with
// copies of B[0,y] and B[1,y] (they are overwritten before their last use).
func (s *allState) chi() {
	for y := 0; y < 5; y++ {
		b := []int{s.lane[lane(0, y)], s.lane[lane(1, y)], s.lane[lane(2, y)], s.lane[lane(3, y)], s.lane[lane(4, y)]}
		c0, c1 := s.p.alloc(), s.p.alloc()
		s.mov(c0, b[0])
		s.mov(c1, b[1])
		b = append(b, c0, c1)
		for x := 0; x < 5; x++ {
			if s.v.chi == "ternlog" {
				s.tern(ternChi, b[x], b[x+1], b[x+2])
				continue
			}
			t := s.p.alloc()
			s.andn(t, b[x+1], b[x+2])
			s.xor(b[x], b[x], t)
			s.p.release(t)
		}
		s.p.release(c0, c1)
	}
}

// iota: A[0,0] ^= RC[round]; rc points at this iteration's first constant
// in a table of constants replicated across the register width.
func (s *allState) iota(rcTable Mem, k int) {
	s.xor(s.lane[0], s.lane[0], rcTable.Offset(k*s.w))
}

// A stepper holds a state in registers and applies the step mappings of
// a round to it (allState, rowState).
type stepper interface {
	theta()
	rhoPi()
	chi()
	iota(rc Mem, k int)
}

// roundOf returns the round function of s for loop: round k applies
// R = iota . chi . pi . rho . theta, with the round constants at rc.
func roundOf(s stepper) func(rc Mem, k int) {
	return func(rc Mem, k int) {
		s.theta()
		s.rhoPi()
		s.chi()
		s.iota(rc, k)
	}
}

// home moves every lane back to register i (a parallel move: cycles are
// broken through a free register).
func (s *allState) home() {
	for {
		moved, pending := false, -1
		for i := 0; i < 25; i++ {
			if s.lane[i] == i {
				continue
			}
			pending = i
			if s.p.isFree(i) {
				s.p.take(i)
				s.mov(i, s.lane[i])
				s.p.release(s.lane[i])
				s.lane[i] = i
				moved = true
			}
		}
		if pending < 0 {
			return
		}
		if !moved {
			t := s.p.alloc()
			s.mov(t, s.lane[pending])
			s.p.release(s.lane[pending])
			s.lane[pending] = t
		}
	}
}
