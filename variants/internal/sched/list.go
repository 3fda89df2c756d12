package sched

import (
	"slices"

	"github.com/mmcloughlin/avo/reg"
)

// issueLimits is the per-cycle issue model, per class; vectorLimit caps
// the vector instructions (ALU, multiply and shuffle together) per cycle.
var issueLimits = [...]int{clsALU: 4, clsMul: 2, clsShuf: 2, clsLoad: 2, clsStore: 1, clsOther: 2}

const vectorLimit = 4

// issued counts the instructions issued in one cycle, per class.
type issued [len(issueLimits)]int

// A params is one configuration of the list scheduler: the register
// budget (limit), how many registers a hoisted load must leave free
// (reserve) and the window over the original order.
type params struct{ limit, reserve, window int }

// configs are tried in order; the best predicted schedule whose
// registers fit wins, the original order if none does.
var configs = []params{
	{15, 0, 30}, {15, 1, 30}, {14, 0, 30}, {16, 2, 30}, {15, 0, 40}, {14, 0, 40},
	{14, 1, 60}, {13, 0, 60}, {15, 1, 80}, {14, 0, 80}, {12, 0, 80},
}

// listState is the state of listSchedule between issues.
type listState struct {
	ops      []*op
	p        params
	regs     int
	npred    []int          // unscheduled predecessors per op
	readyAt  []int          // cycle its operands are ready
	usesLeft map[reg.ID]int // reads of a value not yet scheduled
	done     []bool
	live     map[reg.ID]bool // values written and still to be read
	order    []int
	first    int // first op not yet scheduled
	cycle    int
	used     issued // this cycle's issues
}

// listSchedule orders ops cycle by cycle: among the ready instructions in
// the window (the first p.window not yet scheduled, in original order),
// the one with the longest path to the end goes first, as long as the
// issue model has room and the live vector registers stay within
// p.limit (loads, which only add a register, within p.limit - p.reserve);
// it waits for an instruction that fits rather than exceed the budget,
// and exceeds it only when none ever would. It returns the order, the
// cycles the model predicts and whether at most regs registers are ever
// live.
func listSchedule(ops []*op, p params, regs int) ([]int, int, bool) {
	s := newListState(ops, p, regs)
	for len(s.order) < len(ops) {
		s.used = issued{}
		for {
			best := s.pick()
			if best < 0 {
				break
			}
			if !s.issue(best) {
				return nil, 0, false
			}
		}
		s.cycle++
		if s.cycle > 64*len(ops) {
			return nil, 0, false
		}
	}
	return s.order, s.cycle, true
}

func newListState(ops []*op, p params, regs int) *listState {
	n := len(ops)
	s := &listState{ops: ops, p: p, regs: regs, npred: make([]int, n), readyAt: make([]int, n),
		usesLeft: map[reg.ID]int{}, done: make([]bool, n), live: map[reg.ID]bool{}}
	for i, o := range ops {
		s.npred[i] = len(o.preds)
		for _, u := range o.uses {
			s.usesLeft[u]++
		}
	}
	return s
}

// delta is the change in live registers if op i issued now: +1 per value
// it writes that is read later and not live yet, -1 per live value it
// reads for the last time (and does not write).
func (s *listState) delta(i int) int {
	d := 0
	for _, r := range s.ops[i].defs {
		if !s.live[r] && s.usesLeft[r] > 0 {
			d++
		}
	}
	uses := s.ops[i].uses
	for k, u := range uses {
		if slices.Contains(uses[:k], u) {
			continue // counted at its first occurrence
		}
		c := 0
		for _, v := range uses[k:] {
			if v == u {
				c++
			}
		}
		if s.usesLeft[u] == c && s.live[u] && !slices.Contains(s.ops[i].defs, u) {
			d--
		}
	}
	return d
}

// window is the range of ops pick considers: the first p.window from the
// first unscheduled one.
func (s *listState) window() (int, int) {
	for s.first < len(s.ops) && s.done[s.first] {
		s.first++
	}
	return s.first, min(len(s.ops), s.first+s.p.window)
}

// pick returns the op to issue next in this cycle, -1 if none: the
// highest ready op within the budget that the issue model has room for;
// if none fits the budget now or later and nothing issued this cycle, the
// ready op that adds the fewest registers, earliest first.
func (s *listState) pick() int {
	lo, hi := s.window()
	best, waiting := -1, false
	for i := lo; i < hi; i++ {
		if s.done[i] || s.npred[i] > 0 || !s.fits(i) {
			continue
		}
		if !s.canIssue(i) {
			waiting = true
			continue
		}
		if best < 0 || s.ops[i].height > s.ops[best].height {
			best = i
		}
	}
	if best < 0 && !waiting && s.used == (issued{}) {
		for i := lo; i < hi; i++ {
			if !s.done[i] && s.npred[i] == 0 && s.readyAt[i] <= s.cycle && (best < 0 || s.delta(i) < s.delta(best)) {
				best = i
			}
		}
	}
	return best
}

// fits reports whether op i keeps the live registers within the budget:
// live + delta ≤ p.limit (p.limit - p.reserve for an op that reads no
// vector, a load), or it frees registers.
func (s *listState) fits(i int) bool {
	d := s.delta(i)
	budget := s.p.limit
	if len(s.ops[i].uses) == 0 {
		budget -= s.p.reserve
	}
	return len(s.live)+d <= budget || d < 0
}

// canIssue reports whether op i's operands are ready this cycle and the
// issue model has room for its class (and, for a vector op, below
// vectorLimit vector issues).
func (s *listState) canIssue(i int) bool {
	c := s.ops[i].class
	u := &s.used
	return s.readyAt[i] <= s.cycle && u[c] < issueLimits[c] &&
		!(c <= clsShuf && u[clsALU]+u[clsMul]+u[clsShuf] >= vectorLimit)
}

// issue schedules op i in this cycle: its last reads end live ranges, its
// writes start them, its successors become ready after its latency. It
// reports false if more than regs registers are then live.
func (s *listState) issue(i int) bool {
	o := s.ops[i]
	for _, u := range o.uses {
		s.usesLeft[u]--
	}
	for _, u := range o.uses {
		if s.usesLeft[u] == 0 {
			delete(s.live, u)
		}
	}
	for _, r := range o.defs {
		if s.usesLeft[r] > 0 {
			s.live[r] = true
		}
	}
	if len(s.live) > s.regs {
		return false
	}
	s.done[i] = true
	s.order = append(s.order, i)
	s.used[o.class]++
	for _, x := range o.succs {
		s.npred[x]--
		s.readyAt[x] = max(s.readyAt[x], s.cycle+o.lat)
	}
	return true
}
