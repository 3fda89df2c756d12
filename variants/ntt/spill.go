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
	policy   spillPolicy
	capacity int
	clock    int
	used     map[int]int // resident slot -> last use
	// trace is the sequence of slot requests of the pass (spillTrace),
	// pos the index of the request being served; spillOpt (Belady's
	// policy) spills the slot whose next request is furthest away.
	trace [][]int
	pos   int
}

func newResidency(policy spillPolicy, capacity int) *residency {
	if policy != spillLRU && policy != spillMRU && policy != spillOpt {
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
		if r.policy == spillOpt {
			use = r.nextUse(sl)
		}
		better := use < bestUse // lru: oldest use
		if r.policy != spillLRU {
			better = use > bestUse // mru: newest use; opt: furthest next use
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

// nextUse returns the index of the next request of slot sl after the one
// being served (past the end if none).
func (r *residency) nextUse(sl int) int {
	for i := r.pos + 1; i < len(r.trace); i++ {
		if slices.Contains(r.trace[i], sl) {
			return i
		}
	}
	return len(r.trace)
}

// spillTrace returns the slot requests runGroup makes for pass p on group
// grp, in order, up to the final stores (which need no spilling), by
// running its shuffle plans and butterfly loops without emitting code.
func (s *nttState) spillTrace(p pass, grp []int) [][]int {
	if s.k.shuf.twoSource() {
		panic("regs=spill supports the unpack, blend and shufps shuffles only")
	}
	start := s.lay
	defer func() { s.lay = start }()
	var tr [][]int
	shuffles := func(gl goal) {
		steps, byShuffle := s.shufflePlan(p.regBits, gl)
		for _, st := range steps {
			for _, sl := range grp {
				if sl>>st.r&1 == 0 {
					tr = append(tr, []int{sl, sl | 1<<st.r})
				}
			}
			s.lay = s.lay.step(&byShuffle[st.s.name].shuffle, st.r)
		}
	}
	for _, b := range p.layers {
		shuffles(goal{bit: b})
		r, _ := s.lay.inRegister(b)
		for _, x := range grp {
			if x>>r&1 == 0 {
				tr = append(tr, []int{x, x | 1<<r})
			}
		}
		if s.k.reorder == reorderAvoid {
			shuffles(goal{bit: -1, target: start})
		}
	}
	shuffles(goal{bit: -1, target: start})
	return tr
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
		}
		r.clock++
		r.used[sl] = r.clock
	}
	r.advance(slots)
}

// advance moves past the request being served, checking it is the one
// spillTrace predicted (the final stores come after the trace).
func (r *residency) advance(slots []int) {
	if r.pos < len(r.trace) {
		if !slices.Equal(r.trace[r.pos], slots) {
			panic(fmt.Sprintf("regs=spill: request %d is %v, the trace says %v", r.pos, slots, r.trace[r.pos]))
		}
		r.pos++
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
