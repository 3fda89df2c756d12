package bounds

import (
	"fmt"
	"math"
	"math/bits"
	"sort"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

// The word analysis (AnalyzeWords) proves Poly1305's functions: scalar
// carry chains over 64-bit words and vector limbs in 64-bit lanes, with
// loops over a message of any length. It is an abstract interpretation
// over the function's control-flow graph: every general-purpose register,
// 64-bit vector lane and stored word holds an interval of unsigned
// values (or, for a general-purpose register, a pointer into a
// parameter); the carry and overflow flags hold 0, 1 or either. At each
// branch target the states of its predecessors are joined; after
// wordWidenAfter joins a target's growing bounds are widened to the next
// 2^k − 1 (a lower bound to 0), so the iteration reaches a state S at
// every loop head that contains the entry state and the state after one
// more pass of the body from S: an inductive invariant, whatever the trip
// count. Conditional branches on the length (CMPQ, TESTQ, SUBQ, DECQ
// before JB, JAE, JZ, JNZ) refine the length register on each edge and
// prune an edge they prove infeasible; otherwise both edges are taken.

// A wd is the interval [lo, hi] of an unsigned 64-bit word.
type wd struct{ lo, hi uint64 }

var anyWd = wd{0, math.MaxUint64}

func cwd(c uint64) wd { return wd{c, c} }

func (x wd) isConst() bool { return x.lo == x.hi }

func (x wd) join(y wd) wd { return wd{min(x.lo, y.lo), max(x.hi, y.hi)} }

func (x wd) String() string {
	if x == anyWd {
		return "any"
	}
	return fmt.Sprintf("[%d, %d]", x.lo, x.hi)
}

// ones is 2^bitlen(x) − 1: the least all-ones word at or above x.
func ones(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	return math.MaxUint64 >> bits.LeadingZeros64(x)
}

// widen returns y widened against x: a grown upper bound to the next
// 2^k − 1, a lowered lower bound to 0.
func widen(x, y wd) wd {
	if y.hi > x.hi {
		y.hi = ones(y.hi)
	}
	if y.lo < x.lo {
		y.lo = 0
	}
	return y
}

// A gw is a general-purpose register: a number or a pointer into a
// region (a parameter or the stack) at offset off (if offOK).
type gw struct {
	ptr    bool
	region string
	off    int64
	offOK  bool
	v      wd
}

func (g gw) join(h gw) gw {
	switch {
	case !g.ptr && !h.ptr:
		return gw{v: g.v.join(h.v)}
	case g.ptr && h.ptr && g.region == h.region:
		if g.offOK && h.offOK && g.off == h.off {
			return g
		}
		return gw{ptr: true, region: g.region}
	}
	return gw{v: anyWd}
}

// A flg is the carry or overflow flag: its value (0, 1 or [0, 1]) and,
// at, the addition that produced it while it may be 1 and no instruction
// has read it yet (-1: none): an addition's carry that a later flag write
// discards unread is a lost carry (Overflow).
type flg struct {
	v  wd
	at int
}

var unknownFlag = flg{v: wd{0, 1}, at: -1}

func (f flg) join(g flg) flg {
	at := f.at
	if at < 0 {
		at = g.at
	}
	return flg{v: f.v.join(g.v), at: at}
}

// A cond is what the flags say about a register: cmp, the flags of
// CMPQ x, y (CF ⇔ x < y, ZF ⇔ x = y, y's value recorded); zero, ZF ⇔
// the register is 0 (TESTQ x, x, or the result of SUBQ, DECQ). A write
// to the register, or of the flags by another instruction, drops it.
type cond struct {
	kind string // "", "cmp" or "zero"
	reg  int
	y    wd
}

// A wstate is the abstract machine state.
type wstate struct {
	g      [16]gw
	v      [32][8]wd
	k      [8]kmask
	cf, of flg
	zf     wd
	c      cond
	mem    map[string]map[int64]wd  // 8-byte words stored, by region and offset
	last   map[string]map[int64]int // the instruction that stored each, for findings
}

// A kmask is an opmask: a constant, or unknown.
type kmask struct {
	c  uint64
	ok bool
}

func newWstate() *wstate {
	s := &wstate{cf: unknownFlag, of: unknownFlag, zf: wd{0, 1}, mem: map[string]map[int64]wd{}, last: map[string]map[int64]int{}}
	for i := range s.g {
		s.g[i] = gw{v: anyWd}
	}
	for i := range s.v {
		for j := range s.v[i] {
			s.v[i][j] = anyWd
		}
	}
	return s
}

func (s *wstate) clone() *wstate {
	c := *s
	c.mem = map[string]map[int64]wd{}
	for r, m := range s.mem {
		cm := make(map[int64]wd, len(m))
		for o, w := range m {
			cm[o] = w
		}
		c.mem[r] = cm
	}
	c.last = map[string]map[int64]int{}
	for r, m := range s.last {
		cm := make(map[int64]int, len(m))
		for o, w := range m {
			cm[o] = w
		}
		c.last[r] = cm
	}
	return &c
}

// joinInto joins t into s (widening against s if widen) and reports
// whether s changed.
func (s *wstate) joinInto(t *wstate, wide bool) bool {
	changed := false
	jw := func(x, y wd) wd {
		z := x.join(y)
		if wide {
			z = widen(x, z)
		}
		if z != x {
			changed = true
		}
		return z
	}
	for i := range s.g {
		g := s.g[i].join(t.g[i])
		if wide && !g.ptr {
			g.v = widen(s.g[i].v, g.v)
		}
		if g != s.g[i] {
			changed = true
			s.g[i] = g
		}
	}
	for i := range s.v {
		for j := range s.v[i] {
			s.v[i][j] = jw(s.v[i][j], t.v[i][j])
		}
	}
	for i := range s.k {
		if s.k[i] != t.k[i] && s.k[i].ok {
			s.k[i], changed = kmask{}, true
		}
	}
	for _, f := range []struct{ a, b *flg }{{&s.cf, &t.cf}, {&s.of, &t.of}} {
		if j := f.a.join(*f.b); j != *f.a {
			*f.a, changed = j, true
		}
	}
	s.zf = jw(s.zf, t.zf)
	if s.c != t.c && s.c.kind != "" {
		s.c, changed = cond{}, true
	}
	for r, m := range s.mem {
		for o, w := range m {
			u, ok := t.mem[r][o]
			if !ok { // not stored on one path: a region's input word or unknown
				delete(m, o)
				changed = true
				continue
			}
			m[o] = jw(w, u)
		}
	}
	for r, m := range t.last {
		if s.last[r] == nil {
			s.last[r] = map[int64]int{}
		}
		for o, i := range m {
			if j, ok := s.last[r][o]; !ok || i > j {
				s.last[r][o] = i
			}
		}
	}
	return changed
}

// wordWidenAfter is the number of joins at a branch target before its
// bounds are widened.
const wordWidenAfter = 3

// maxWordSteps bounds the instructions one word analysis interprets.
const maxWordSteps = 1 << 22

type wanalysis struct {
	fn     *ir.Function
	insts  []*ir.Instruction
	data   Data
	c      contract.WordFunc
	msg    []byte // the message's bytes (a concrete run); nil: any
	outs   map[string][]wd
	peaks  map[string]uint64
	s      *wstate
	i      int
	labels map[string]int
}

// AnalyzeWords runs the word analysis of fn, a Poly1305 function, with
// its contract c and the DATA sections. Proven means: for every input
// within c, no addition of a carry chain loses its carry, no vector or
// address addition wraps, no multiply reads bits its instruction drops
// (above 32 bits for VPMULUDQ, 52 for IFMA) or truncates its product
// (IMULQ), and every output word is within c's bound. Out is the join
// of the output words whose bound is not every word (h[2]); for a
// function without such a word it is [0, 0].
func AnalyzeWords(fn *ir.Function, data Data, c contract.WordFunc) Result {
	r, _ := AnalyzeWordsOn(fn, data, c, nil)
	return r
}

// AnalyzeWordsOn is AnalyzeWords with the message's bytes given (msg
// non-nil: its length and bytes are constants, as in a concrete run,
// which tests compare with the generic code); it also returns the final
// output words by parameter (joined over the returns), if proven.
func AnalyzeWordsOn(fn *ir.Function, data Data, c contract.WordFunc, msg []byte) (res Result, outs map[string][]contract.Word) {
	a := &wanalysis{fn: fn, insts: fn.Instructions(), data: data, c: c, msg: msg, outs: map[string][]wd{}, peaks: map[string]uint64{}}
	defer func() {
		if r := recover(); r != nil {
			st, ok := r.(stop)
			if !ok {
				st = stop{Finding{Status: Unproven, Index: a.i, Lane: -1, What: fmt.Sprintf("the analysis failed: %v", r)}}
			}
			if st.f.Index >= 0 && st.f.Index < len(a.insts) {
				st.f.Instr = avogen.Asm(a.insts[st.f.Index])
			}
			res = Result{Status: st.f.Status, Finding: &st.f}
		}
	}()
	a.labels = (&analysis{fn: fn}).labels()
	res = a.run(a.entry())
	outs = map[string][]contract.Word{}
	for name, ws := range a.outs {
		for _, w := range ws {
			outs[name] = append(outs[name], contract.Word{Lo: w.lo, Hi: w.hi})
		}
	}
	return res, outs
}

// run interprets the control-flow graph to its fixpoint and checks the
// outputs at every return.
func (a *wanalysis) run(entry *wstate) Result {
	starts := map[int]bool{0: true}
	for i, in := range a.insts {
		if in.IsBranch {
			if l := in.TargetLabel(); l != nil {
				if t, ok := a.labels[string(*l)]; ok {
					starts[t] = true
				}
			}
			starts[i+1] = true
		}
	}
	in := map[int]*wstate{0: entry}
	joins := map[int]int{}
	work := map[int]bool{0: true}
	out := wd{math.MaxUint64, 0}
	steps := 0
	for len(work) > 0 {
		pc := pop(work)
		a.s = in[pc].clone()
		for {
			if steps++; steps > maxWordSteps {
				a.i = pc
				a.unproven("more than %d instructions interpreted", maxWordSteps)
			}
			if pc >= len(a.insts) {
				a.i = len(a.insts) - 1
				a.unproven("the function does not return")
			}
			ins := a.insts[pc]
			a.i = pc
			if ins.IsTerminal {
				o := a.outputs()
				out = out.join(o)
				break
			}
			if ins.IsBranch {
				for _, e := range a.successors(ins, pc) {
					a.propagate(in, joins, work, e.pc, e.s)
				}
				break
			}
			a.step(ins)
			pc++
			if starts[pc] {
				a.propagate(in, joins, work, pc, a.s)
				break
			}
		}
	}
	if out.lo > out.hi {
		out = wd{}
	}
	return Result{Status: Proven, Out: Interval{int64(out.lo), int64(min(out.hi, math.MaxInt64))}, Peaks: a.peaks}
}

// entry is the state at the function's start: the contract's input words
// in their parameters' memory, every register any.
func (a *wanalysis) entry() *wstate {
	s := newWstate()
	for _, p := range a.c.Args {
		if p.In == nil || p.Bytes || p.Scalar != nil {
			continue
		}
		m := map[int64]wd{}
		for j, w := range p.In {
			m[int64(8*j)] = wd{w.Lo, w.Hi}
		}
		s.mem[p.Name] = m
	}
	return s
}

// pop removes and returns the least pending instruction index.
func pop(work map[int]bool) int {
	ks := make([]int, 0, len(work))
	for k := range work {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	delete(work, ks[0])
	return ks[0]
}

func (a *wanalysis) propagate(in map[int]*wstate, joins map[int]int, work map[int]bool, pc int, s *wstate) {
	old, ok := in[pc]
	if a.msg != nil { // a concrete run follows its one path, never joining
		if len(work) > 0 {
			a.unproven("a concrete run takes both edges of a branch")
		}
		in[pc] = s.clone()
		work[pc] = true
		return
	}
	if !ok {
		in[pc] = s.clone()
		work[pc] = true
		return
	}
	joins[pc]++
	if old.joinInto(s, joins[pc] > wordWidenAfter) {
		work[pc] = true
	}
}

// peak records v as a value of the checked kind of operand.
func (a *wanalysis) peak(kind string, v uint64) { a.peaks[kind] = max(a.peaks[kind], v) }

func (a *wanalysis) unproven(why string, args ...any) {
	panic(stop{Finding{Status: Unproven, Index: a.i, Lane: -1, What: fmt.Sprintf(why, args...)}})
}

func (a *wanalysis) overflowAt(at, lane int, why string, args ...any) {
	panic(stop{Finding{Status: Overflow, Index: at, Lane: lane, What: fmt.Sprintf(why, args...)}})
}

func (a *wanalysis) overflow(lane int, why string, args ...any) {
	a.overflowAt(a.i, lane, why, args...)
}

// outputs checks the output words at a return: each stored word (or the
// input word, if none was stored) within its bound; a carry still unread
// is lost unless an output is defined modulo its width. It returns the
// join of the bounded output words.
func (a *wanalysis) outputs() wd {
	mod := false
	out := wd{math.MaxUint64, 0}
	for _, p := range a.c.Args {
		mod = mod || p.Mod
		for j, b := range p.Out {
			off := int64(8 * j)
			w, ok := a.s.mem[p.Name][off]
			if !ok {
				if p.In == nil {
					a.unproven("output %s[%d] is not written on every path", p.Name, j)
				}
				w = wd{p.In[j].Lo, p.In[j].Hi}
			}
			if at, stored := a.s.last[p.Name][off]; stored {
				a.i = at
			}
			if w.lo < b.Lo || w.hi > b.Hi {
				a.overflow(j, "output %s[%d] in %s outside the output bound %v", p.Name, j, w, b)
			}
			if b != contract.AnyWord {
				out = out.join(w)
			}
			if len(a.outs[p.Name]) <= j {
				a.outs[p.Name] = append(a.outs[p.Name], w)
			} else {
				a.outs[p.Name][j] = a.outs[p.Name][j].join(w)
			}
		}
	}
	for _, f := range []flg{a.s.cf, a.s.of} {
		if f.at >= 0 && !mod {
			a.overflowAt(f.at, -1, "the carry out of this addition is lost (unread at the return)")
		}
	}
	return out
}

// A succ is a feasible successor of a branch with its refined state.
type succ struct {
	pc int
	s  *wstate
}

// successors returns the feasible successors of a branch.
func (a *wanalysis) successors(in *ir.Instruction, pc int) []succ {
	l := in.TargetLabel()
	if l == nil {
		a.unproven("an indirect branch")
	}
	t, ok := a.labels[string(*l)]
	if !ok {
		a.unproven("a branch to an unknown label")
	}
	if in.IsUnconditionalBranch() {
		return []succ{{t, a.s}}
	}
	var out []succ
	for _, taken := range []bool{true, false} {
		s := a.s.clone()
		if !a.refine(s, in.Opcode, taken) {
			continue
		}
		to := pc + 1
		if taken {
			to = t
		}
		out = append(out, succ{to, s})
	}
	return out
}

// refine narrows s to the edge of a conditional branch taken or not; it
// reports whether the edge is feasible.
func (a *wanalysis) refine(s *wstate, op string, taken bool) bool {
	onCF := false // the condition: CF set (JB), else ZF set (JZ)
	switch op {
	case "JB", "JCS", "JC", "JLO":
		onCF = true
	case "JAE", "JCC", "JNC", "JHS":
		onCF, taken = true, !taken
	case "JZ", "JEQ", "JE":
	case "JNZ", "JNE":
		taken = !taken
	default:
		a.unproven("branch %s is not modelled", op)
	}
	// taken now means: the flag is set on this edge.
	if onCF {
		s.cf.at = -1 // read
		if !has(s.cf.v, b2u(taken)) {
			return false
		}
		s.cf.v = cwd(b2u(taken))
		if s.c.kind == "cmp" && s.c.y.isConst() && !s.g[s.c.reg].ptr {
			x, y := &s.g[s.c.reg].v, s.c.y.lo
			if taken { // x < y
				if y == 0 || x.lo >= y {
					return false
				}
				x.hi = min(x.hi, y-1)
			} else { // x >= y
				if x.hi < y {
					return false
				}
				x.lo = max(x.lo, y)
			}
		}
		return true
	}
	if !has(s.zf, b2u(taken)) {
		return false
	}
	s.zf = cwd(b2u(taken))
	if (s.c.kind == "zero" || s.c.kind == "cmp" && s.c.y.isConst()) && !s.g[s.c.reg].ptr {
		x := &s.g[s.c.reg].v
		y := uint64(0)
		if s.c.kind == "cmp" {
			y = s.c.y.lo
		}
		if taken {
			if !has(*x, y) {
				return false
			}
			*x = cwd(y)
		} else {
			if x.isConst() && x.lo == y {
				return false
			}
			if x.lo == y {
				x.lo++
			}
			if x.hi == y {
				x.hi--
			}
		}
	}
	return true
}

func has(x wd, v uint64) bool { return x.lo <= v && v <= x.hi }

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}
