// Package bounds proves the value bounds of generated arithmetic
// functions: a range analysis over the instruction stream avo compiled
// (registers allocated), as the constant-time check
// (variants/internal/ctcheck) reads it. It never reads a generator's own
// model of its lanes (such as variants/ntt's interval bounds): it is the
// independent check of that model.
//
// Every byte of every vector register and of memory refers to a lane (a
// byte k of a lane of width w); lanes hold intervals of bit patterns (see
// lane) and, where one base variable determines them, the expression
// that computes them, so that two lanes computed from the same variable
// (a Barrett reduction x - q·⌊x·v/2^26⌋, a correction min(x, x+q)) are
// combined by enumerating the variable over its range (at most 2^17
// values), and all others by interval arithmetic. Shuffles, blends and
// permutes move byte references, with their immediates, masks and index
// vectors read as constants; loads read the input contract from the
// parameters' memory and the generator's DATA sections for constants.
//
// Soundness: an instruction or operand it does not model, a branch, a
// read of a byte nothing wrote, a non-constant shuffle control, all stop
// the analysis with status Unproven, never Proven. An add, subtract or
// left shift whose result fits no b-bit form, a lane read as signed that
// spans 2^(b-1) (or as unsigned that spans 0) and an output lane outside
// the declared output bound are Overflow findings, with the instruction
// and the lane; a wrapping low product used other than as a multiply's
// operand is Unproven, with the instruction and the lane (see
// overflow), but for the difference of Shoup's two low products,
// lo32(x·w) − lo32(hi32(x·w′)·q), whose exact value a checked identity
// bounds when the instructions are exactly its data flow (see shoup;
// and IFMA's Barrett remainder, see barrett).
package bounds

import (
	"encoding/binary"
	"fmt"
	"math"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/variants/internal/avogen"
)

// A Status is the outcome of the analysis of one function.
type Status string

// The statuses.
const (
	Proven   Status = "proven"   // every output lane is within the bound, no lane overflows
	Overflow Status = "overflow" // a lane overflows or an output leaves the bound
	Unproven Status = "unproven" // the analysis could not model the function
)

// An Interval is a closed range of integers.
type Interval struct{ Lo, Hi int64 }

func (v Interval) String() string { return fmt.Sprintf("[%d, %d]", v.Lo, v.Hi) }

// width is hi − lo as an unsigned count (a range of every 64-bit value
// does not wrap to a small one).
func (v Interval) width() uint64 { return uint64(v.Hi - v.Lo) }

// Contains reports whether w lies within v.
func (v Interval) Contains(w Interval) bool { return v.Lo <= w.Lo && w.Hi <= v.Hi }

// A Param is the contract of one pointer parameter: an array of Lanes
// signed integers of Elem bytes each; or, if Scalar, of one integer
// parameter, whose value in this run is Value (AnalyzeAll runs every
// combination of the contract's values).
type Param struct {
	Scalar bool
	Value  int64
	Name   string
	Elem   int
	Lanes  int
	In     *Interval // the input contract of every lane; nil: not read
	Out    *Interval // the output bound; nil: not written
	// Values, if set, are the exact input lanes (a concrete run, which
	// tests compare with the hardware's).
	Values []int64
	// LaneIn, if set, is the input bound of each lane (one set of a
	// contract's Sets; a lane of one value is that constant).
	LaneIn []Interval
	// Encoding, if set, makes the output an encoding: Out, which must be
	// every pattern of the lanes, bounds the lanes the function writes
	// (a length that depends on an integer parameter; at least one must
	// be written), each any bit pattern, the parts of packed wider lanes
	// and their wrapping truncations included.
	Encoding bool
}

// A Finding is why a function is not proven.
type Finding struct {
	Status Status
	Index  int    // the instruction, in the function's list
	Instr  string // as the generated .s has it
	Lane   int    // the lane of the instruction's destination; -1: none
	What   string
}

func (f Finding) String() string {
	l := ""
	if f.Lane >= 0 {
		l = fmt.Sprintf(" lane %d", f.Lane)
	}
	return fmt.Sprintf("instruction %d (%s)%s: %s", f.Index, f.Instr, l, f.What)
}

// A Result is the analysis of one function.
type Result struct {
	Status  Status
	Finding *Finding // nil if Proven
	Out     Interval // the join of the output lanes (signed), if Proven
	// Lanes are the output lanes' bounds (signed), by parameter, if
	// Proven.
	Lanes map[string][]Interval
	// Peaks, of the word analysis (Poly1305), are the greatest value
	// each checked kind of operand reached (a VPMULUDQ operand, below
	// 2^32; a VPMADD52 operand, below 2^52; a vector sum, an IMULQ
	// product, below 2^64), if Proven: the headroom left.
	Peaks map[string]uint64
}

// Data is the content of the DATA sections, by symbol name.
type Data map[string][]byte

// DataOf returns the DATA sections of f.
func DataOf(f *ir.File) Data {
	d := Data{}
	for _, s := range f.Sections {
		g, ok := s.(*ir.Global)
		if !ok {
			continue
		}
		b := make([]byte, g.Size)
		for _, x := range g.Data {
			putConst(b[x.Offset:], x.Value)
		}
		d[g.Symbol.Name] = b
	}
	return d
}

func putConst(b []byte, c operand.Constant) {
	switch v := c.(type) {
	case operand.U8:
		b[0] = byte(v)
	case operand.I8:
		b[0] = byte(v)
	case operand.U16:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case operand.I16:
		binary.LittleEndian.PutUint16(b, uint16(v))
	case operand.U32:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case operand.I32:
		binary.LittleEndian.PutUint32(b, uint32(v))
	case operand.U64:
		binary.LittleEndian.PutUint64(b, uint64(v))
	case operand.I64:
		binary.LittleEndian.PutUint64(b, uint64(v))
	case operand.F32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case operand.F64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(float64(v)))
	}
}

// A cell is one byte: byte k of lane l of width w bytes; a nil l is a
// byte nothing wrote.
type cell struct {
	l    *lane
	w, k int8
}

// A gp is a general-purpose register: a constant, a pointer into a
// region at a known offset, or unknown.
type gp struct {
	kind   int8 // gpUnknown, gpConst, gpPtr
	c      int64
	region string
}

const (
	gpUnknown = iota
	gpConst
	gpPtr
)

type state struct {
	v   [32][64]cell
	k   [8]uint64
	kok [8]bool
	// km are the elements of an opmask a compare computed (−1 or 0
	// lanes of width kw), where not a constant.
	km [8][]*lane
	kw [8]int
	g  [16]gp
	// zf is the zero flag where zfOK (set by a scalar instruction on a
	// constant register).
	zf, zfOK bool
	mem      map[string]map[int64]cell
	last     map[string]map[int64]int // region → offset → storing instruction
}

type analysis struct {
	fn     *ir.Function
	insts  []*ir.Instruction
	data   Data
	params map[string]Param
	spec   []Param
	vars   []Interval // the base variables' ranges
	inputs map[string]map[int64]*lane
	parts  map[partKey]*lane
	merges map[string]*lane
	deep   map[int32]bool // gathered variables (see gather)
	s      *state
	i      int // the instruction being analysed
}

// stop ends the analysis with a finding.
type stop struct{ f Finding }

// Analyze runs the range analysis on fn (compiled: registers allocated)
// with the contracts of its pointer parameters and the DATA sections.
func Analyze(fn *ir.Function, data Data, params []Param) (res Result) {
	a := &analysis{fn: fn, insts: fn.Instructions(), data: data, params: map[string]Param{}, spec: params,
		inputs: map[string]map[int64]*lane{}, parts: map[partKey]*lane{}, merges: map[string]*lane{}, deep: map[int32]bool{}}
	for _, p := range params {
		a.params[p.Name] = p
	}
	a.s = &state{mem: map[string]map[int64]cell{}, last: map[string]map[int64]int{}}
	defer func() {
		if r := recover(); r != nil {
			st, ok := r.(stop)
			if !ok { // an operand form the model did not expect: not proven
				st = stop{Finding{Status: Unproven, Index: a.i, Lane: -1, What: fmt.Sprintf("the analysis failed: %v", r)}}
			}
			if st.f.Index >= 0 && st.f.Index < len(a.insts) {
				st.f.Instr = avogen.Asm(a.insts[st.f.Index])
			}
			res = Result{Status: st.f.Status, Finding: &st.f}
		}
	}()
	labels := a.labels()
	for pc, steps := 0, 0; pc < len(a.insts); steps++ {
		in := a.insts[pc]
		a.i = pc
		if steps > maxSteps {
			a.unproven("more than %d instructions executed", maxSteps)
		}
		switch {
		case in.IsTerminal:
			return a.outputs()
		case in.IsBranch:
			pc = a.branch(in, labels)
			continue
		}
		a.step(in)
		pc++
	}
	a.i = len(a.insts) - 1
	a.unproven("the function does not return")
	return
}

// maxSteps bounds the instructions one analysis executes (loops run
// their constant trip counts).
const maxSteps = 1 << 20

// labels maps the function's labels to the index of the instruction
// they precede.
func (a *analysis) labels() map[string]int {
	m := map[string]int{}
	i := 0
	for _, n := range a.fn.Nodes {
		switch n := n.(type) {
		case ir.Label:
			m[string(n)] = i
		case *ir.Instruction:
			i++
		}
	}
	return m
}

// branch returns the next instruction after a branch: its target if
// it is unconditional or its condition is a known constant (a loop
// counter's zero flag), else the analysis stops.
func (a *analysis) branch(in *ir.Instruction, labels map[string]int) int {
	l := in.TargetLabel()
	if l == nil {
		a.unproven("an indirect branch")
	}
	t, ok := labels[string(*l)]
	if !ok {
		a.unproven("a branch to an unknown label")
	}
	if in.IsUnconditionalBranch() {
		return t
	}
	if !a.s.zfOK {
		a.unproven("a branch on flags that are not constant")
	}
	var taken bool
	switch in.Opcode {
	case "JNZ", "JNE":
		taken = !a.s.zf
	case "JZ", "JEQ", "JE":
		taken = a.s.zf
	default:
		a.unproven("branch %s is not modelled", in.Opcode)
	}
	if taken {
		return t
	}
	return a.i + 1
}

func (a *analysis) unproven(why string, args ...any) {
	panic(stop{Finding{Status: Unproven, Index: a.i, Lane: -1, What: fmt.Sprintf(why, args...)}})
}

// overflow ends the analysis with an overflow finding at lane of the
// current instruction; a wrapping low product read as a value (or
// stored) is Unproven instead: beyond Shoup's and IFMA's Barrett (see
// shoup, barrett, ifma2Of), the modular cancellation of two wrapping
// products is not modelled, so the analysis cannot tell an intended wrap from an
// overflow there.
func (a *analysis) overflow(lane int, why string, args ...any) {
	what := fmt.Sprintf(why, args...)
	st := Overflow
	if strings.Contains(what, wrapping) {
		st = Unproven
	}
	panic(stop{Finding{Status: st, Index: a.i, Lane: lane, What: what}})
}

// wrapping is in every finding about a wrapping low product.
const wrapping = "wrapping low product"

// outputs checks the output lanes of every parameter with a bound.
func (a *analysis) outputs() Result {
	res := Result{Status: Proven, Out: Interval{math.MaxInt64, math.MinInt64}, Lanes: map[string][]Interval{}}
	for _, p := range a.spec {
		if p.Out == nil {
			continue
		}
		written := 0
		for j := 0; j < p.Lanes; j++ {
			off := int64(j * p.Elem)
			if _, stored := a.s.last[p.Name][off]; p.Encoding && !stored {
				continue
			}
			written++
			cs := make([]cell, p.Elem)
			for k := range cs {
				cs[k] = a.memCell(p.Name, off+int64(k))
			}
			l := a.assemble(cs, p.Elem)
			lo, hi, ok := signedView(uint(8*p.Elem), l.lo, l.hi)
			full := p.Encoding && *p.Out == Interval{smin(uint(8 * p.Elem)), smax(uint(8 * p.Elem))}
			if full && !ok { // any pattern (an encoding's bytes, parts of wider lanes of packed fields)
				lo, hi, ok = p.Out.Lo, p.Out.Hi, true
			}
			if at, stored := a.s.last[p.Name][off]; stored {
				a.i = at
			}
			if !ok || l.wrap && !full || !p.Out.Contains(Interval{lo, hi}) {
				a.overflow(j, "output %s[%d] in %s outside the output bound %s", p.Name, j, l, p.Out)
			}
			res.Out.Lo, res.Out.Hi = min(res.Out.Lo, lo), max(res.Out.Hi, hi)
			res.Lanes[p.Name] = append(res.Lanes[p.Name], Interval{lo, hi})
		}
		if written == 0 {
			a.unproven("no lane of %s written", p.Name)
		}
	}
	return res
}

// newVar returns a fresh base variable's lane over [lo, hi].
func (a *analysis) newVar(lo, hi int64, wrap bool) *lane {
	a.vars = append(a.vars, Interval{lo, hi})
	return &lane{lo: lo, hi: hi, sym: int32(len(a.vars) - 1), wrap: wrap, src: int32(a.i)}
}

func constLane(v int64) *lane { return &lane{lo: v, hi: v, sym: -1, src: -1} }

// memCell returns the byte at off of region (a parameter's input lane
// if nothing stored it).
func (a *analysis) memCell(region string, off int64) cell {
	if c, ok := a.s.mem[region][off]; ok {
		return c
	}
	if b, ok := a.data[region]; ok {
		if off < 0 || off >= int64(len(b)) {
			a.unproven("load outside DATA %s at offset %d", region, off)
		}
		return cell{l: constLane(int64(b[off])), w: 1}
	}
	p, ok := a.params[region]
	if !ok || p.In == nil && p.LaneIn == nil && p.Values == nil {
		a.unproven("read of %s+%d, which nothing wrote", region, off)
	}
	if off < 0 || off >= int64(p.Elem*p.Lanes) {
		a.unproven("read of %s+%d outside its %d lanes", region, off, p.Lanes)
	}
	base := off - off%int64(p.Elem)
	m := a.inputs[region]
	if m == nil {
		m = map[int64]*lane{}
		a.inputs[region] = m
	}
	l := m[base]
	if l == nil {
		switch in := p.LaneIn; {
		case p.Values != nil:
			l = constLane(p.Values[base/int64(p.Elem)])
		case in != nil && in[base/int64(p.Elem)].Lo == in[base/int64(p.Elem)].Hi:
			l = constLane(in[base/int64(p.Elem)].Lo)
		case in != nil:
			l = a.newVar(in[base/int64(p.Elem)].Lo, in[base/int64(p.Elem)].Hi, false)
			l.src = -1
		default:
			l = a.newVar(p.In.Lo, p.In.Hi, false)
			l.src = -1
		}
		m[base] = l
	}
	return cell{l: l, w: int8(p.Elem), k: int8(off - base)}
}

// cellsOf splits lanes of width w into cells.
func cellsOf(ls []*lane, w int) []cell {
	cs := make([]cell, len(ls)*w)
	for j, l := range ls {
		for k := 0; k < w; k++ {
			cs[j*w+k] = cell{l: l, w: int8(w), k: int8(k)}
		}
	}
	return cs
}

// lanesOf assembles cells into lanes of width w.
func (a *analysis) lanesOf(cs []cell, w int) []*lane {
	ls := make([]*lane, len(cs)/w)
	for j := range ls {
		ls[j] = a.assemble(cs[j*w:(j+1)*w], w)
	}
	return ls
}

// assemble builds one lane of width w from its w cells: the lane they
// are, a constant, a merge of narrower lanes or a part of a wider one.
func (a *analysis) assemble(cs []cell, w int) *lane {
	cs = zeroAsOwn(cs)
	c0 := cs[0]
	same := c0.l != nil && int(c0.w) == w
	exact, wrap := true, false
	for k, c := range cs {
		if c.l == nil {
			a.unproven("a read of a register byte nothing wrote")
		}
		if c.l != c0.l || int(c.k) != k {
			same = false
		}
		exact = exact && c.l.lo == c.l.hi
		wrap = wrap || c.l.wrap
	}
	if same {
		return c0.l
	}
	if exact { // a constant bit pattern (of a wrapping product if any part is)
		var u uint64
		for k := len(cs) - 1; k >= 0; k-- {
			u = u<<8 | uint64(byteOf(cs[k]))
		}
		l := constLane(wrapSigned(uint(8*w), int64(u)))
		l.wrap = wrap
		if w == 4 && c0.l.prov != nil && c0.l.prov.kind == provMul && c0.w == 8 && c0.k == 4 && sameLane(cs, c0.l) {
			l.prov = &prov{kind: provHi, x: c0.l} // t of the Shoup rule, in a concrete run
		}
		return l
	}
	if int(c0.w) > w && int(c0.k)%w == 0 { // a part of a wider lane
		for k, c := range cs {
			if c.l != c0.l || int(c.k) != int(c0.k)+k {
				a.unproven("a lane assembled from bytes of different lanes")
			}
		}
		return a.part(c0.l, int(c0.w), int(c0.k)/w, w)
	}
	return a.merge(cs, w)
}

// zeroAsOwn returns cs with each constant zero byte after the first
// replaced by the first cell's lane's own byte at that place where that
// byte is zero for every value of the lane (above a non-negative lane's
// bound): the same value, so that a lane whose high bytes an OR or a
// byte selection took from zeros still assembles as (a part of) itself.
func zeroAsOwn(cs []cell) []cell {
	c0 := cs[0]
	if c0.l == nil || c0.l.isConst() || c0.l.wrap {
		return cs
	}
	var out []cell
	for k := 1; k < len(cs); k++ {
		c := cs[k]
		own := cell{l: c0.l, w: c0.w, k: c0.k + int8(k)}
		if c.l == nil || !c.l.isConst() || byteOf(c) != 0 || int(own.k) >= int(c0.w) || !zeroByte(own) {
			continue
		}
		if out == nil {
			out = append([]cell(nil), cs...)
		}
		out[k] = own
	}
	if out == nil {
		return cs
	}
	return out
}

// sameLane reports whether cs are consecutive bytes of the lane l.
func sameLane(cs []cell, l *lane) bool {
	for k, c := range cs {
		if c.l != l || int(c.k) != int(cs[0].k)+k {
			return false
		}
	}
	return true
}

func byteOf(c cell) byte {
	return byte(uint64(c.l.lo) >> (8 * uint(c.k)))
}

type partKey struct {
	l        *lane
	lw, k, w int
}

// part returns part k (width w) of lane l of width lw: the same lane
// each time (so that two reads of a part are one variable).
func (a *analysis) part(l *lane, lw, k, w int) *lane {
	key := partKey{l, lw, k, w}
	if p, ok := a.parts[key]; ok {
		return p
	}
	p := a.newPart(l, lw, k, w)
	if l.prov != nil && l.prov.kind == provMul && lw == 8 && k == 1 && w == 4 {
		p = withProv(p, &prov{kind: provHi, x: l}) // t of the Shoup rule
	}
	a.parts[key] = p
	return p
}

func (a *analysis) newPart(l *lane, lw, k, w int) *lane {
	if l.prov != nil && l.prov.kind == provLow32 && lw == 8 && k == 0 && w == 4 {
		return a.newVar(l.prov.lo, l.prov.hi, false) // mul=ifma2's remainder
	}
	if p := a.exprPart(l, lw, k, w); p != nil {
		return p
	}
	b, s := uint(8*w), uint(8*w*k)
	lo, hi, ok := signedView(uint(8*lw), l.lo, l.hi)
	if !ok || l.wrap {
		p := a.newVar(smin(b), smax(b), true)
		p.trunc = l.trunc
		return p
	}
	if k == lw/w-1 { // the top part: an arithmetic shift
		return a.newVar(lo>>s, hi>>s, false)
	}
	if k == 0 && lo >= smin(b) && hi <= smax(b) {
		return a.newVar(lo, hi, false)
	}
	if lo>>(s+b) == hi>>(s+b) {
		m := int64(1)<<b - 1
		return a.newVar(lo>>s&m, hi>>s&m, false)
	}
	return a.newVar(smin(b), smax(b), true) // a low part of a wide value
}

// exprPart is part k (width w) of a lane of one variable, as an
// expression of that variable bounded by enumerating it (a variable of
// at most maxEnum values):
// the 16-bit halves of a dword that packs two results of one input byte
// (CBD) stay related to it. nil if l is no such lane or the bound fails.
func (a *analysis) exprPart(l *lane, lw, k, w int) *lane {
	if l.wrap || l.sym < 0 || l.isConst() || w >= lw {
		return nil
	}
	v := a.vars[l.sym]
	if v.width() >= maxEnum { // only variables small enough to enumerate
		return nil
	}
	n := mkNode("part", uint(8*lw), 0, exprOf(l), constNode(int64(8*w*k)<<8|int64(8*w)))
	r := enumerate(n, v.Lo, v.Hi)
	if r.err != nil || n.dep > a.maxDepth(l.sym) {
		return nil
	}
	return &lane{lo: r.lo, hi: r.hi, sym: l.sym, e: n, src: int32(a.i)}
}

// merge builds a lane of width w from complete narrower lanes: the same
// lane each time the same parts are merged.
func (a *analysis) merge(cs []cell, w int) *lane {
	key := fmt.Sprint(w)
	for _, c := range cs {
		key += fmt.Sprintf(",%p.%d", c.l, c.k)
	}
	if m, ok := a.merges[key]; ok {
		return m
	}
	m := a.newMerge(cs, w)
	a.merges[key] = m
	return m
}

func (a *analysis) newMerge(cs []cell, w int) *lane {
	if g := a.gather(cs, w); g != nil {
		return g
	}
	var lo, hi int64
	wrap := false
	for k := 0; k < w; {
		c := cs[k]
		pw := int(c.w)
		if c.k != 0 || pw >= w || k+pw > w {
			a.unproven("a lane of %d bytes assembled from parts of lanes", w)
		}
		for j := 0; j < pw; j++ {
			if cs[k+j].l != c.l || int(cs[k+j].k) != j {
				a.unproven("a lane of %d bytes assembled from parts of lanes", w)
			}
		}
		b := uint(8 * pw)
		var l, h int64
		if k+pw == w {
			l, h, _ = signedView(b, c.l.lo, c.l.hi)
		} else {
			l, h, _ = unsignedView(b, c.l.lo, c.l.hi)
		}
		lo += l << uint(8*k)
		hi += h << uint(8*k)
		wrap = wrap || c.l.wrap
		k += pw
	}
	return a.newVar(lo, hi, wrap)
}

// maxGathered is the most distinct bytes gather packs into its variable.
const maxGathered = 3

// gather builds a lane of width w ≤ 4 from whole byte lanes and zero
// bytes (bytes of the input gathered into a dword by VPSHUFB or VPERMB,
// possibly one byte repeated) as an expression of a fresh variable p
// that packs its distinct bytes, at most maxGathered, each any pattern in
// [0, 255]: lane = Σ_k byte_{sel(k)}(p)·2^(8k), so that the fields later
// shifted and masked out of it stay functions of one enumerable (two
// bytes) or bisectable (three) variable. The bytes' own correlation with
// other lanes is given up (sound). nil if cs is no such merge.
func (a *analysis) gather(cs []cell, w int) *lane {
	if w > 4 {
		return nil
	}
	var distinct []*lane
	var sel int64 // 4 bits per destination byte: a byte of p, or 0xf for zero
	for k := 0; k < w; k++ {
		c := cs[k]
		j := 0xf
		switch {
		case c.l.isConst() && c.l.lo == 0 && c.w == 1:
		case c.w != 1 || c.l.wrap || c.l.isConst():
			return nil
		default:
			j = -1
			for i, d := range distinct {
				if d == c.l {
					j = i
				}
			}
			if j < 0 {
				if len(distinct) == maxGathered {
					return nil
				}
				distinct = append(distinct, c.l)
				j = len(distinct) - 1
			}
		}
		sel |= int64(j) << (4 * k)
	}
	if len(distinct) == 0 {
		return nil
	}
	p := a.newVar(0, int64(1)<<(8*len(distinct))-1, false)
	a.deep[p.sym] = true
	n := mkNode("gather", uint(8*w), 0, xNode, constNode(sel))
	var hi int64
	for k := 0; k < w; k++ {
		if sel>>(4*k)&0xf != 0xf {
			hi |= 0xff << (8 * k)
		}
	}
	if sel == identitySel(len(distinct), w) { // the bytes in order: p itself
		return p
	}
	return &lane{lo: 0, hi: hi, sym: p.sym, e: n, src: int32(a.i)}
}

// identitySel is the selector of gather that is p itself: bytes 0..d−1
// in order, zeros above.
func identitySel(d, w int) int64 {
	var sel int64
	for k := w - 1; k >= 0; k-- {
		j := int64(0xf)
		if k < d {
			j = int64(k)
		}
		sel = sel<<4 | j
	}
	return sel
}

// vreg returns the index and size of a vector register operand.
func vreg(op operand.Op) (int, int, bool) {
	r, ok := op.(reg.Register)
	if !ok || r.Kind() != reg.KindVector {
		return 0, 0, false
	}
	return int(reg.ToPhysical(r).PhysicalIndex()), int(r.Size()), true
}

// read returns the n bytes of a vector register or memory operand.
func (a *analysis) read(op operand.Op, n int) []cell {
	if i, size, ok := vreg(op); ok {
		if n > size {
			n = size
		}
		return append([]cell(nil), a.s.v[i][:n]...)
	}
	if m, ok := op.(operand.Mem); ok {
		region, off := a.addr(m)
		cs := make([]cell, n)
		for k := range cs {
			cs[k] = a.memCell(region, off+int64(k))
		}
		return cs
	}
	a.unproven("operand %s is not modelled", op.Asm())
	return nil
}

// write stores cells to a vector register (zeroing the rest, as VEX and
// EVEX writes do) or to memory.
func (a *analysis) write(op operand.Op, cs []cell) {
	if i, _, ok := vreg(op); ok {
		copy(a.s.v[i][:], cs)
		for k := len(cs); k < 64; k++ {
			a.s.v[i][k] = cell{l: zero, w: 1}
		}
		return
	}
	if m, ok := op.(operand.Mem); ok {
		region, off := a.addr(m)
		if _, isData := a.data[region]; isData {
			a.unproven("a store to DATA %s", region)
		}
		mm := a.s.mem[region]
		if mm == nil {
			mm = map[int64]cell{}
			a.s.mem[region] = mm
			a.s.last[region] = map[int64]int{}
		}
		for k, c := range cs {
			mm[off+int64(k)] = c
			a.s.last[region][off+int64(k)] = a.i
		}
		return
	}
	a.unproven("destination %s is not modelled", op.Asm())
}

var zero = constLane(0)

// addr resolves a memory operand to a region and a constant offset.
func (a *analysis) addr(m operand.Mem) (string, int64) {
	if m.Index != nil {
		a.unproven("indexed addressing is not modelled")
	}
	if m.Base == nil {
		a.unproven("an absolute address")
	}
	switch m.Base.Asm() {
	case "SB":
		if _, ok := a.data[m.Symbol.Name]; !ok {
			a.unproven("a load of %s, which is no DATA section", m.Asm())
		}
		return m.Symbol.Name, int64(m.Disp)
	case "SP":
		return "(SP)", int64(m.Disp)
	case "FP":
		a.unproven("a vector access to %s", m.Asm())
	}
	g := a.gpr(m.Base)
	if g.kind != gpPtr {
		a.unproven("an address through %s, which holds no known pointer", m.Base.Asm())
	}
	return g.region, g.c + int64(m.Disp)
}

func gpIndex(r reg.Register) (int, bool) {
	if r.Kind() != reg.KindGP {
		return 0, false
	}
	return int(reg.ToPhysical(r).PhysicalIndex()), true
}

func (a *analysis) gpr(r reg.Register) gp {
	i, ok := gpIndex(r)
	if !ok {
		a.unproven("register %s is not a general-purpose register", r.Asm())
	}
	return a.s.g[i]
}
