package main

import "fmt"

// A layout says where each bit of a coefficient index lives: pos[b] is a
// lane bit when below laneBits, else register (slot) bit pos[b]-laneBits.
// Every shuffle used here moves whole index bits, so a layout is a bit
// permutation of the 8 index bits.
type layout struct {
	pos      [8]int
	laneBits int
}

func identity(laneBits int) layout {
	l := layout{laneBits: laneBits}
	for b := range l.pos {
		l.pos[b] = b
	}
	return l
}

// index returns the coefficient index held by lane lane of slot slot.
func (l layout) index(slot, lane int) int {
	phys := slot<<l.laneBits | lane
	idx := 0
	for b, p := range l.pos {
		idx |= (phys >> p & 1) << b
	}
	return idx
}

// inRegister reports whether index bit b is a register bit, and which.
func (l layout) inRegister(b int) (int, bool) {
	return l.pos[b] - l.laneBits, l.pos[b] >= l.laneBits
}

func (l layout) isIdentity() bool { return l == identity(l.laneBits) }

// A shuffle kind combines two registers A, B (slots differing only in one
// register bit) into lo (stored in A's slot) and hi (B's slot). sim defines
// the data movement on lane arrays; cost counts instructions per pair.
type shuffle struct {
	name string
	cost int
	sim  func(a, b []int) (lo, hi []int)
}

// apply returns the layout after applying s to every pair of slots
// differing in register bit r; it panics if s is not a bit permutation.
func (l layout) apply(s *shuffle, r int) layout {
	lanes := 1 << l.laneBits
	slots := 1 << (8 - l.laneBits)
	m := make([][]int, slots)
	for sl := range m {
		m[sl] = make([]int, lanes)
		for ln := range m[sl] {
			m[sl][ln] = l.index(sl, ln)
		}
	}
	for sl := range m {
		if sl>>r&1 == 0 {
			m[sl], m[sl|1<<r] = s.sim(m[sl], m[sl|1<<r])
		}
	}
	out := layout{laneBits: l.laneBits}
	where := map[int]int{}
	for sl := range m {
		for ln, idx := range m[sl] {
			where[idx] = sl<<l.laneBits | ln
		}
	}
	for b := range out.pos {
		p := where[1<<b]
		if p&(p-1) != 0 {
			panic(fmt.Sprintf("shuffle %s is not a bit permutation", s.name))
		}
		out.pos[b] = trailing(p)
	}
	for sl := range m {
		for ln, idx := range m[sl] {
			if out.index(sl, ln) != idx {
				panic(fmt.Sprintf("shuffle %s is not a bit permutation", s.name))
			}
		}
	}
	return out
}

func trailing(p int) int {
	n := 0
	for p > 1 {
		p >>= 1
		n++
	}
	return n
}

// A step is one shuffle applied along register bit r.
type step struct {
	s *shuffle
	r int
}

// move is the physical bit permutation of shuffle s along register bit r:
// data at physical bit position p moves to sigma[p]. It does not depend on
// the layout, so it is computed once.
type moveKey struct {
	s        *shuffle
	r, lanes int
}

var moves = map[moveKey][8]int{}

func (l layout) step(s *shuffle, r int) layout {
	key := moveKey{s, r, l.laneBits}
	sigma, ok := moves[key]
	if !ok {
		sigma = identity(l.laneBits).apply(s, r).pos
		moves[key] = sigma
	}
	out := l
	for b, p := range l.pos {
		out.pos[b] = sigma[p]
	}
	return out
}

// plan finds the cheapest sequence of shuffles from l, using only register
// bits in regBits, that reaches a layout satisfying goal.
func plan(l layout, kinds []*shuffle, regBits []int, goal func(layout) bool) ([]step, layout) {
	type node struct {
		l    layout
		path []step
		cost int
	}
	best := map[layout]int{l: 0}
	frontier := []node{{l: l}}
	var found *node
	for len(frontier) > 0 {
		// pick the cheapest frontier node (Dijkstra on a tiny graph)
		bi := 0
		for i := range frontier {
			if frontier[i].cost < frontier[bi].cost {
				bi = i
			}
		}
		n := frontier[bi]
		frontier = append(frontier[:bi], frontier[bi+1:]...)
		if goal(n.l) {
			found = &n
			break
		}
		if n.cost > 24 {
			continue
		}
		for _, s := range kinds {
			for _, r := range regBits {
				nl := n.l.step(s, r)
				c := n.cost + s.cost
				if old, ok := best[nl]; ok && old <= c {
					continue
				}
				best[nl] = c
				p := append(append([]step(nil), n.path...), step{s, r})
				frontier = append(frontier, node{nl, p, c})
			}
		}
	}
	if found == nil {
		panic("no shuffle plan found")
	}
	return found.path, found.l
}

// Lane-array helpers for shuffle simulations. unit is the number of
// elements per shuffled unit; lane128 the elements per 128-bit lane.

// unpack interleaves the low (hi=false) or high halves of each 128-bit lane
// of a and b in units of unit elements, as VPUNPCKL*/VPUNPCKH* do.
func unpack(a, b []int, unit, lane128 int, hi bool) []int {
	out := make([]int, len(a))
	units := lane128 / unit
	for base := 0; base < len(a); base += lane128 {
		for k := 0; k < units/2; k++ {
			src := k
			if hi {
				src += units / 2
			}
			for e := 0; e < unit; e++ {
				out[base+(2*k)*unit+e] = a[base+src*unit+e]
				out[base+(2*k+1)*unit+e] = b[base+src*unit+e]
			}
		}
	}
	return out
}

// pick128 builds a vector from 128-bit lanes: sel[i] = (from b?, lane).
func pick128(a, b []int, lane128 int, sel [][2]int) []int {
	out := make([]int, 0, len(a))
	for _, s := range sel {
		src := a
		if s[0] == 1 {
			src = b
		}
		out = append(out, src[s[1]*lane128:(s[1]+1)*lane128]...)
	}
	return out
}

// swapBit exchanges lane bit p with the register bit: lo gets the elements
// with lane bit p clear from both, hi those with it set.
func swapBit(a, b []int, p int) (lo, hi []int) {
	lo, hi = make([]int, len(a)), make([]int, len(a))
	for l := range a {
		if l>>p&1 == 0 {
			lo[l], hi[l] = a[l], a[l|1<<p]
		} else {
			lo[l], hi[l] = b[l&^(1<<p)], b[l]
		}
	}
	return lo, hi
}
