package main

import (
	"fmt"
	"slices"

	"github.com/mmcloughlin/avo/reg"
)

// spillTemps is the number of registers regs=spill leaves for q, the
// zeta and Montgomery temporaries and the shuffle outputs (a shuffle
// writes two fresh registers while its inputs are still live).
const spillTemps = 6

// A residency tracks, for regs=spill, which slots are in registers (at
// most capacity) and when each was last used, and picks the slot to spill
// when another must be loaded. A spilled slot lives in its own place in
// the polynomial, which is also where the pass ends up storing it.
type residency struct {
	policy   string // "lru" or "mru"
	capacity int
	clock    int
	used     map[int]int // resident slot -> last use
}

func newResidency(policy string, capacity int) *residency {
	if policy != "lru" && policy != "mru" {
		panic(fmt.Sprintf("unknown spill policy %q", policy))
	}
	return &residency{policy: policy, capacity: capacity, used: map[int]int{}}
}

// victim returns the resident slot to spill, never one of keep.
func (r *residency) victim(keep []int) int {
	best, bestUse := -1, 0
	for sl, use := range r.used {
		if slices.Contains(keep, sl) {
			continue
		}
		better := use < bestUse // lru: oldest use
		if r.policy == "mru" {
			better = use > bestUse
		}
		if best < 0 || better || use == bestUse && sl < best {
			best, bestUse = sl, use
		}
	}
	if best < 0 {
		panic("regs=spill: nothing to spill")
	}
	return best
}

// need makes the slots resident (regs=spill; otherwise they are), loading
// them and spilling others as the policy says, and marks them used.
func (s *nttState) need(regs map[int]reg.VecVirtual, slots ...int) {
	r := s.res
	if r == nil {
		return
	}
	for _, sl := range slots {
		if _, ok := r.used[sl]; !ok {
			for len(r.used) >= r.capacity {
				v := r.victim(slots)
				s.g.store(regs[v], s.slotMem(v))
				s.release(regs, v)
			}
			regs[sl] = s.g.load(s.slotMem(sl))
			s.spills++
		}
		r.clock++
		r.used[sl] = r.clock
	}
}

// release forgets slot sl's register (regs=spill) after it was stored.
func (s *nttState) release(regs map[int]reg.VecVirtual, sl int) {
	if s.res == nil {
		return
	}
	delete(s.res.used, sl)
	delete(regs, sl)
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
