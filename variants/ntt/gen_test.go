package main

import (
	"fmt"
	"math/big"
	"testing"
)

func TestFieldConstants(t *testing.T) {
	for _, f := range []*field{&kem, &dsa} {
		if got := f.signed(f.q * f.qinv()); got != 1 {
			t.Errorf("%s: q·qinv = %d mod 2^%d, want 1", f.name, got, f.ebits)
		}
		if f.invN*int64(256/f.minLen)%f.q != 1 {
			t.Errorf("%s: invN = %d is not (256/minLen)⁻¹ mod q", f.name, f.invN)
		}
	}
	if z := kem.zetaFwd(128, 0); z != 1729 {
		t.Errorf("kem first zeta = %d, want 1729 (FIPS 203 zetas[1])", z)
	}
	if z := dsa.zetaFwd(128, 0); z != 4808194 {
		t.Errorf("dsa first zeta = %d, want 4808194 (FIPS 204 zetas[1])", z)
	}
	if z := dsa.zetaInv(1, 0); z != dsa.zeta(255) {
		t.Errorf("dsa first inverse zeta = %d, want zetas[255] = %d", z, dsa.zeta(255))
	}
}

// TestShufflePlans checks that every shuffle kind of every strategy is a
// bit permutation of the layout and that plans reach every layer's goal
// and return to the standard order.
func TestShufflePlans(t *testing.T) {
	for _, f := range []*field{&kem, &dsa} {
		for _, s := range []*isa{avx2, avx512vl, avx512} {
			for _, strat := range []shufKnob{shufUnpack, shufBlend, shufPermt2, shufVBMI, shufShufps} {
				g := newGen(f, s, newConsts("t"))
				kinds := g.shuffleKinds(strat)
				if kinds == nil {
					continue
				}
				var plain []*shuffle
				for _, k := range kinds {
					plain = append(plain, &k.shuffle)
				}
				regs := []int{0, 1, 2}
				start := identity(g.laneBits)
				for b := 0; b < g.laneBits; b++ {
					if strat == shufShufps && 1<<b < 32/f.ebits {
						// 32-bit granular: the word bit of ML-KEM's 16-bit
						// lanes stays (never a butterfly bit, minLen = 2).
						continue
					}
					steps, l := plan(start, plain, regs, func(l layout) bool { _, ok := l.inRegister(b); return ok })
					if _, ok := l.inRegister(b); !ok || len(steps) == 0 {
						t.Errorf("%s %s %s: bit %d not moved into a register", f.name, s.name, strat, b)
					}
					if back, l2 := plan(l, plain, regs, func(l layout) bool { return l == start }); !l2.isIdentity() {
						t.Errorf("%s %s %s: no way back after bit %d (%d steps)", f.name, s.name, strat, b, len(back))
					}
				}
			}
		}
	}
}

func TestIntervals(t *testing.T) {
	b := kem.reduceBound(interval{-32768, 32767})
	if b.lo < 0 || b.hi > kem.q {
		t.Errorf("kem Barrett bound %v, want within [0, q]", b)
	}
	m := kem.montBound(interval{-32768, 32767}, kem.q/2)
	if m.abs() >= kem.q {
		t.Errorf("kem Montgomery bound %v, want inside (-q, q)", m)
	}
	if m := dsa.montBound(interval{-1 << 31, 1<<31 - 1}, dsa.q/2); m.abs() >= dsa.q {
		t.Errorf("dsa Montgomery bound %v, want inside (-q, q)", m)
	}
}

// TestMergePasses checks the regs=mem pass split: every layer in exactly
// one pass, in execution order, each pass's layers on its register bits or
// in lanes, groups within half the registers, and merge=3 the original
// split (top three layers, then the rest in 8-register groups).
func TestMergePasses(t *testing.T) {
	for _, f := range []*field{&kem, &dsa} {
		for _, inverse := range []bool{false, true} {
			ks := nttVariants(f, inverse)
			ks = append(ks, mergeVariants(f, inverse)...)
			for _, k := range ks {
				if k.regs != regsMem {
					continue
				}
				s := &nttState{g: newGen(f, k.isa, nil), k: k}
				ps := s.passes()
				var got []int
				for _, p := range ps {
					if 2<<len(p.regBits) > k.isa.regs {
						t.Errorf("%s: group of %d registers", k.name(), 1<<len(p.regBits))
					}
					in := map[int]bool{}
					for _, r := range p.regBits {
						in[r+s.g.laneBits] = true
					}
					for _, b := range p.layers {
						if b >= s.g.laneBits && !in[b] {
							t.Errorf("%s: layer %d not on a register bit of its pass %v", k.name(), b, p.regBits)
						}
					}
					got = append(got, p.layers...)
				}
				if want := s.layers(); fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%s: layers %v, want %v", k.name(), got, want)
				}
				m := k.mergeLayers()
				if n := (8 - s.g.laneBits + m - 1) / m; len(ps) != n {
					t.Errorf("%s: %d passes, want %d", k.name(), len(ps), n)
				}
				if k.merge == 0 {
					top := ps[0]
					if inverse {
						top = ps[len(ps)-1]
					}
					if len(ps) != 2 || fmt.Sprint(top.regBits) != fmt.Sprint([]int{7 - s.g.laneBits, 6 - s.g.laneBits, 5 - s.g.laneBits}) {
						t.Errorf("%s: original split changed: %v", k.name(), ps)
					}
				}
			}
		}
	}
}

// TestResidencyVictim checks the spill policies: LRU spills the slot used
// longest ago, MRU the one used last, neither one the caller needs.
func TestResidencyVictim(t *testing.T) {
	for _, c := range []struct {
		policy spillPolicy
		keep   []int
		want   int
	}{
		{spillLRU, nil, 1}, {spillLRU, []int{1}, 3}, {spillMRU, nil, 2}, {spillMRU, []int{2}, 3},
		// next requests: 1 at 4, 2 never, 3 at 2
		{spillOpt, nil, 2}, {spillOpt, []int{2}, 1},
	} {
		r := newResidency(c.policy, 3)
		r.used = map[int]int{1: 1, 2: 5, 3: 3}
		r.trace = [][]int{{4, 5}, {5, 6}, {3, 5}, {6}, {1, 4}}
		if got := r.victim(c.keep); got != c.want {
			t.Errorf("%s, keeping %v: victim %d, want %d", c.policy, c.keep, got, c.want)
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("unknown spill policy accepted")
		}
	}()
	newResidency("fifo", 3)
}

// TestSpillVariants checks that regs=spill exists exactly where the
// polynomial does not fit in half the registers, as one pass over every
// layer.
func TestSpillVariants(t *testing.T) {
	for _, f := range []*field{&kem, &dsa} {
		for _, k := range spillVariants(f, false) {
			g := newGen(f, k.isa, nil)
			if 2*g.slots <= k.isa.regs {
				t.Errorf("%s %s: the polynomial fits, regs=spill is regs=all", f.pkg, k.name())
			}
			s := &nttState{g: g, k: k}
			if ps := s.passes(); len(ps) != 1 || len(ps[0].layers) != len(s.layers()) {
				t.Errorf("%s %s: passes %v, want one with every layer", f.pkg, k.name(), ps)
			}
		}
	}
}

// TestShoupQuotient checks w' = round(w·2^32/q) against exact rational
// rounding (halves up) for every centered ML-DSA zeta.
func TestShoupQuotient(t *testing.T) {
	for k := range 256 {
		w := dsa.center(dsa.zeta(k))
		r := new(big.Rat).SetFrac(big.NewInt(w<<32), big.NewInt(dsa.q))
		r.Add(r, big.NewRat(1, 2))
		want := new(big.Int).Div(r.Num(), r.Denom()) // floor, Denom > 0
		if got := shoupQuotient(w, dsa.q); got != want.Int64() {
			t.Errorf("shoupQuotient(%d) = %d, want %d", w, got, want)
		}
	}
}
