package main

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/mmcloughlin/avo/x86"
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
			for _, strat := range []string{"unpack", "blend", "permt2", "vbmi", "shufps"} {
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
					if strat == "shufps" && 1<<b < 32/f.ebits {
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
				if k.regs != "mem" {
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
		policy string
		keep   []int
		want   int
	}{
		{"lru", nil, 1}, {"lru", []int{1}, 3}, {"mru", nil, 2}, {"mru", []int{2}, 3},
		// next requests: 1 at 4, 2 never, 3 at 2
		{"opt", nil, 2}, {"opt", []int{2}, 1},
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

// schedProgram builds two passes over 12 vectors of memory: load, multiply
// by a constant, add, store; the second pass reads each vector the first
// wrote to its neighbour.
func schedProgram(t *testing.T) []*ir.Instruction {
	col := reg.NewCollection()
	p := col.GP64()
	c := operand.Mem{Symbol: operand.Symbol{Name: "c", Static: true}, Base: reg.StaticBase}
	var ins []*ir.Instruction
	add := func(i *ir.Instruction, err error) {
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, i)
	}
	for pass := range 2 {
		for i := range 12 {
			r, m, a := col.YMM(), col.YMM(), col.YMM()
			add(x86.VMOVDQU(operand.Mem{Base: p, Disp: 32 * ((i + pass) % 12)}, r))
			add(x86.VPMULLW(c, r, m))
			add(x86.VPADDW(m, r, a))
			add(x86.VMOVDQU(a, operand.Mem{Base: p, Disp: 32 * i}))
		}
	}
	return ins
}

// TestListSchedule checks every scheduler configuration on schedProgram,
// with and without split constant loads: the order is a permutation that
// keeps every dependency (registers and memory), and the linear scan never
// gives one ymm register to two values live at once.
func TestListSchedule(t *testing.T) {
	for _, hoist := range []bool{false, true} {
		ins := schedProgram(t)
		if hoist {
			ins = splitConstLoads(ins)
		}
		ops := schedGraph(ins)
		for i, op := range ops {
			if op.class != clsLoad || len(memAccesses(op.in)) == 0 || i < len(ops)/2 {
				continue
			}
			stored := false
			for _, d := range op.preds {
				stored = stored || ops[d].class == clsStore
			}
			if !stored {
				t.Errorf("hoist=%v: second-pass load %d does not wait for the store of its vector", hoist, i)
			}
		}
		scheduled := 0
		for _, p := range schedConfigs {
			order, _, ok := listSchedule(ops, p, 16)
			if !ok {
				continue
			}
			scheduled++
			pos := make([]int, len(ops))
			seen := map[int]bool{}
			for k, i := range order {
				pos[i] = k
				seen[i] = true
			}
			if len(order) != len(ops) || len(seen) != len(ops) {
				t.Fatalf("hoist=%v %v: order of %d instructions is not a permutation of %d", hoist, p, len(order), len(ops))
			}
			for i, op := range ops {
				for _, d := range op.preds {
					if pos[d] >= pos[i] {
						t.Errorf("hoist=%v %v: instruction %d scheduled before its dependency %d", hoist, p, i, d)
					}
				}
			}
			alloc, err := linearScan(ops, order, 16)
			if err != nil {
				t.Fatalf("hoist=%v %v: %v", hoist, p, err)
			}
			checkAllocation(t, ops, order, alloc)
		}
		if scheduled == 0 {
			t.Errorf("hoist=%v: no configuration scheduled the program", hoist)
		}
	}
}

// checkAllocation replays order and fails if a register is written while
// another value still needs it.
func checkAllocation(t *testing.T, ops []*schedOp, order []int, alloc reg.Allocation) {
	t.Helper()
	last := map[reg.ID]int{}
	for k, i := range order {
		for _, u := range ops[i].uses {
			last[u] = k
		}
	}
	holder := map[reg.ID]reg.ID{} // physical -> value
	for k, i := range order {
		for _, d := range ops[i].defs {
			ph, ok := alloc[d]
			if !ok {
				t.Fatalf("value %v has no register", d)
			}
			if v, busy := holder[ph]; busy && v != d && last[v] > k {
				t.Fatalf("instruction %d writes %v over %v, still needed at %d", k, ph, v, last[v])
			}
			holder[ph] = d
		}
	}
}
