package ctcheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

// A Kind is the kind of a finding.
type Kind string

// The kinds of findings.
const (
	// Branch: a conditional branch whose flags (or JCXZ's, LOOP's register)
	// depend on a secret, or an indirect jump to a secret target.
	Branch Kind = "branch"
	// Address: a load or store whose address (base, index or the mask of
	// a masked access) depends on a secret.
	Address Kind = "address"
	// Latency: an instruction whose latency depends on its operands
	// (DIV, IDIV and the like) with a secret operand.
	Latency Kind = "latency"
)

// A Finding is one instruction that can leak a secret through timing.
type Finding struct {
	Kind  Kind
	Index int    // in the function's instruction list
	Instr string // as the generated .s has it
	// Origin is the instruction where the secret it depends on entered
	// the function (a load from secret memory or of a secret argument);
	// Via, for a branch on flags, the instruction that set them (-1 if
	// none).
	Origin, Via int
	What        string // what depends on the secret ("flags ZF", "index register CX")
	Note        string // why that leaks, where not obvious
	Line        int    // line in the generated .s; 0 if unknown
}

// Why explains the finding with the lines of the instructions it refers
// to (lines[i] is instruction i's line; nil or short: by index).
func (f Finding) Why(insts []*ir.Instruction, lines []int) string {
	at := func(i int) string {
		if i < len(lines) && lines[i] > 0 {
			return fmt.Sprintf("line %d (%s)", lines[i], avogen.Asm(insts[i]))
		}
		return fmt.Sprintf("instruction %d (%s)", i, avogen.Asm(insts[i]))
	}
	var b strings.Builder
	b.WriteString(f.What)
	if f.Via >= 0 && f.Via < len(insts) {
		b.WriteString(", set at " + at(f.Via) + ",")
	}
	b.WriteString(" depends on the secret loaded at " + at(f.Origin))
	if f.Note != "" {
		b.WriteString("; " + f.Note)
	}
	return b.String()
}

// Analyze runs the taint analysis on fn, a function avo has compiled
// (registers allocated), with its parameters classified by args: every
// parameter must be named in args.Secret or args.Public. It returns the
// findings in instruction order.
func Analyze(fn *ir.Function, args Args) ([]Finding, error) {
	a, err := newAnalysis(fn, args)
	if err != nil {
		return nil, err
	}
	if err := a.run(); err != nil {
		return nil, fmt.Errorf("function %s: %w", fn.Name, err)
	}
	return a.sorted(), nil
}

// An analysis is the state of one function's taint analysis.
type analysis struct {
	fn     *ir.Function
	insts  []*ir.Instruction
	params *paramMap
	slots  int    // 8-byte slots of the local frame
	region []bool // secret per region (flow-insensitive, monotone)
	blocks []block
	found  map[findingKey]Finding
	report bool // record findings (the last pass)
	// public marks the instructions whose outputs are declassified
	// (Public).
	public []bool
}

type findingKey struct {
	index int
	kind  Kind
}

// A block is a basic block: instructions [start, end) and successor
// blocks.
type block struct {
	start, end int
	succ       []int
}

func newAnalysis(fn *ir.Function, args Args) (*analysis, error) {
	pm, err := mapParams(fn, args)
	if err != nil {
		return nil, err
	}
	ds, err := Declassifications(fn)
	if err != nil {
		return nil, err
	}
	a := &analysis{fn: fn, insts: fn.Instructions(), params: pm, slots: (fn.LocalSize + 7) / 8,
		found: map[findingKey]Finding{}}
	a.public = make([]bool, len(a.insts))
	for _, d := range ds {
		a.public[d.Index] = true
	}
	a.region = make([]bool, rArgs+len(pm.params))
	for i, p := range pm.params {
		a.region[rArgs+i] = p.secret
	}
	if err := a.checkInstructions(); err != nil {
		return nil, fmt.Errorf("function %s: %w", fn.Name, err)
	}
	a.blocks = a.buildBlocks()
	return a, nil
}

// checkInstructions rejects what the analysis cannot model: virtual
// (unallocated) registers, calls, and operand-less pseudo-instructions
// other than PCALIGN and BYTE.
func (a *analysis) checkInstructions() error {
	for i, in := range a.insts {
		if strings.HasPrefix(in.Opcode, "CALL") {
			return fmt.Errorf("instruction %d (%s): calls are not analysed", i, avogen.Asm(in))
		}
		if len(in.Operands) > 0 && in.Inputs == nil && in.Outputs == nil && !in.IsBranch && in.Opcode != "PCALIGN" && in.Opcode != "BYTE" {
			return fmt.Errorf("instruction %d (%s): no operand metadata (raw instruction)", i, avogen.Asm(in))
		}
		for _, r := range in.Registers() {
			if r.ID().IsVirtual() {
				return fmt.Errorf("instruction %d (%s): virtual register %s: compile the function first", i, avogen.Asm(in), r.Asm())
			}
		}
	}
	return nil
}

// buildBlocks splits the instructions at labels and after branches and
// links the blocks: fall-through unless the instruction is terminal or an
// unconditional branch, plus the branch target.
func (a *analysis) buildBlocks() []block {
	n := len(a.insts)
	target := map[string]int{} // label -> instruction index
	leader := make([]bool, n+1)
	leader[0] = true
	i := 0
	for _, node := range a.fn.Nodes {
		switch node := node.(type) {
		case ir.Label:
			target[string(node)] = i
			leader[i] = true
		case *ir.Instruction:
			i++
			if node.IsBranch || node.IsTerminal {
				leader[i] = true
			}
		}
	}
	blockOf := make([]int, n+1)
	var bs []block
	for i := 0; i < n; i++ {
		if leader[i] {
			bs = append(bs, block{start: i})
		}
		blockOf[i] = len(bs) - 1
		bs[len(bs)-1].end = i + 1
	}
	for bi := range bs {
		last := a.insts[bs[bi].end-1]
		if !last.IsTerminal && !last.IsUnconditionalBranch() && bs[bi].end < n {
			bs[bi].succ = append(bs[bi].succ, blockOf[bs[bi].end])
		}
		if l := last.TargetLabel(); l != nil {
			if t, ok := target[string(*l)]; ok && t < n {
				bs[bi].succ = append(bs[bi].succ, blockOf[t])
			}
		}
	}
	return bs
}

// run iterates the data flow to a fixed point (again whenever a region's
// taint grew, as loads from it read the new taint), then makes one last
// pass that records findings.
func (a *analysis) run() error {
	if len(a.blocks) == 0 {
		return nil
	}
	for round := 0; ; round++ {
		before := append([]bool(nil), a.region...)
		in := a.fixpoint()
		if equalBools(before, a.region) {
			a.report = true
			for bi, s := range in {
				if s != nil {
					a.runBlock(bi, s.clone())
				}
			}
			return nil
		}
		if round > len(a.region)+1 {
			return fmt.Errorf("region taint did not settle")
		}
	}
}

// fixpoint returns the state at each block's entry (nil: unreachable).
func (a *analysis) fixpoint() []*state {
	in := make([]*state, len(a.blocks))
	in[0] = newState(a.slots)
	in[0].gp[4] = frame(0) // SP
	work := []int{0}
	queued := map[int]bool{0: true}
	for len(work) > 0 {
		bi := work[0]
		work = work[1:]
		queued[bi] = false
		out := a.runBlock(bi, in[bi].clone())
		for _, t := range a.blocks[bi].succ {
			switch {
			case in[t] == nil:
				in[t] = out.clone()
			case !in[t].joinFrom(out):
				continue
			}
			if !queued[t] {
				work, queued[t] = append(work, t), true
			}
		}
	}
	return in
}

func (a *analysis) runBlock(bi int, s *state) *state {
	for i := a.blocks[bi].start; i < a.blocks[bi].end; i++ {
		a.step(s, i)
	}
	return s
}

func (a *analysis) find(f Finding) {
	if !a.report {
		return
	}
	k := findingKey{f.Index, f.Kind}
	if _, ok := a.found[k]; !ok {
		f.Instr = avogen.Asm(a.insts[f.Index])
		a.found[k] = f
	}
}

func (a *analysis) sorted() []Finding {
	out := make([]Finding, 0, len(a.found))
	for _, f := range a.found {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Index != out[j].Index {
			return out[i].Index < out[j].Index
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// step applies instruction i to s, recording findings on the last pass.
func (a *analysis) step(s *state, i int) {
	in := a.insts[i]
	if strings.HasPrefix(in.Opcode, "LEA") {
		m := in.Operands[0].(operand.Mem)
		a.write(s, in, in.Operands[1], a.declassify(a.addrVal(s, m), i), i)
		return
	}
	a.checkAddresses(s, in, i)
	var v val = public
	if !isCancelling(in) {
		for _, op := range in.Inputs {
			v = v.join(a.read(s, in, op, i))
		}
	}
	fe := flagEffectOf(in)
	if fe.read != 0 {
		fv, by := s.flagVal(fe.read)
		if in.IsConditional && fv.sec {
			a.find(Finding{Kind: Branch, Index: i, Origin: int(fv.org), Via: int(by), What: "flags " + flagNames(fe.read)})
		}
		v = v.join(fv)
	}
	if in.IsConditional && fe.read == 0 && v.sec { // JCXZ, LOOP: a register condition
		a.find(Finding{Kind: Branch, Index: i, Origin: int(v.org), Via: -1, What: "the branch condition"})
	}
	if in.IsBranch && in.TargetLabel() == nil && v.sec {
		a.find(Finding{Kind: Branch, Index: i, Origin: int(v.org), Via: -1, What: "the jump target"})
	}
	if variableLatency.MatchString(in.Opcode) && v.sec {
		a.find(Finding{Kind: Latency, Index: i, Origin: int(v.org), Via: -1, What: "an operand", Note: latencyReason(in.Opcode)})
	}
	v = a.declassify(v.moved(frameDelta(in)), i)
	if strings.HasPrefix(in.Opcode, "XCHG") && len(in.Operands) == 2 {
		x, y := a.declassify(a.read(s, in, in.Operands[0], i), i), a.declassify(a.read(s, in, in.Operands[1], i), i)
		a.write(s, in, in.Operands[0], y, i)
		a.write(s, in, in.Operands[1], x, i)
	} else {
		for _, op := range in.Outputs {
			a.write(s, in, op, v, i)
		}
	}
	s.setFlags(fe, v, i)
}

// declassify returns v public, pointer provenance kept, if instruction i
// is declassified (Public), else v.
func (a *analysis) declassify(v val, i int) val {
	if a.public[i] {
		v.sec, v.org = false, -1
	}
	return v
}

// frameDelta says how in moves a pointer into the frame: MOVQ and
// CMOVQcc copy it (delta 0), ADDQ/SUBQ of a constant, INCQ and DECQ move
// it by a known delta; anything else leaves its offset unknown.
func frameDelta(in *ir.Instruction) (delta int, ok bool) {
	op := in.Opcode
	switch {
	case op == "MOVQ" || strings.HasPrefix(op, "CMOVQ"):
		return 0, true
	case op == "INCQ":
		return 1, true
	case op == "DECQ":
		return -1, true
	case (op == "ADDQ" || op == "SUBQ") && len(in.Operands) == 2:
		c, isConst := in.Operands[0].(operand.Constant)
		if !isConst {
			return 0, false
		}
		d := int(int64(constValue(c)))
		if _, small := c.(operand.I8); small {
			d = int(int8(c.(operand.I8)))
		}
		if _, small := c.(operand.I32); small {
			d = int(int32(c.(operand.I32)))
		}
		if op == "SUBQ" {
			d = -d
		}
		return d, true
	}
	return 0, false
}

func flagNames(f flags) string {
	var out []string
	for i, n := range []string{"CF", "PF", "AF", "ZF", "SF", "OF"} {
		if f&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return strings.Join(out, ",")
}

// checkAddresses records an Address finding for each memory operand of in
// whose base or index register holds a secret, and for a memory access
// under a secret opmask: one the instruction reads as its write mask, not
// one it only writes (VPCMPGTD m, Z0, K1 sets K1 whatever K1 held).
func (a *analysis) checkAddresses(s *state, in *ir.Instruction, i int) {
	hasMem := false
	for _, op := range in.Operands {
		m, ok := op.(operand.Mem)
		if !ok {
			continue
		}
		hasMem = true
		for _, r := range []reg.Register{m.Base, m.Index} {
			if r == nil {
				continue
			}
			if p := s.reg(r); p != nil && p.sec {
				a.find(Finding{Kind: Address, Index: i, Origin: int(p.org), Via: -1, What: "address register " + r.Asm()})
			}
		}
	}
	if !hasMem {
		return
	}
	for _, op := range in.Inputs {
		if r, ok := op.(reg.Register); ok && kindOf(r) == kMask && r.ID().Index() != 0 {
			if p := s.reg(r); p != nil && p.sec && !strings.HasPrefix(in.Opcode, "KMOV") {
				a.find(Finding{Kind: Address, Index: i, Origin: int(p.org), Via: -1, What: "mask " + r.Asm() + " of a masked memory access"})
			}
		}
	}
}

// read returns the value of input operand op of instruction i.
func (a *analysis) read(s *state, in *ir.Instruction, op operand.Op, i int) val {
	switch op := op.(type) {
	case reg.Register:
		if p := s.reg(op); p != nil {
			return *p
		}
		return public
	case operand.Mem:
		addr := a.addrVal(s, op).data()
		return a.load(s, op, memWidth(in), i).join(addr)
	}
	return public
}

// write sets output operand op of instruction i to v: a register
// (merged with its old value for a partial write), or memory.
func (a *analysis) write(s *state, in *ir.Instruction, op operand.Op, v val, i int) {
	switch op := op.(type) {
	case reg.Register:
		p := s.reg(op)
		if p == nil {
			return
		}
		if partialWrite(in, op) {
			v = v.join(*p)
		}
		*p = v
	case operand.Mem:
		strong := strongStore.MatchString(in.Opcode) && !masked(in)
		a.store(s, op, v, memWidth(in), strong)
	}
}

// partialWrite reports whether writing r leaves part of its old value:
// 8- and 16-bit general-purpose registers, XMM registers written by
// legacy SSE, and merge-masked AVX-512 destinations.
func partialWrite(in *ir.Instruction, r reg.Register) bool {
	switch kindOf(r) {
	case kGP:
		return r.Size() < 4
	case kVec:
		return legacySSE(in) || masked(in)
	}
	return false
}

// masked reports whether in is merge-masked: it names an opmask other
// than K0 as a write mask, without zeroing (".Z").
func masked(in *ir.Instruction) bool {
	if strings.HasPrefix(in.Opcode, "K") {
		return false
	}
	for _, s := range in.Suffixes {
		if s == "Z" {
			return false
		}
	}
	for _, op := range in.Operands {
		if r, ok := op.(reg.Register); ok && kindOf(r) == kMask && r.ID().Index() != 0 {
			return true
		}
	}
	return false
}

// memWidth is the width in bytes of in's memory access: its widest
// register operand (opmasks aside), else its size suffix, else 64.
func memWidth(in *ir.Instruction) int {
	w := 0
	for _, op := range in.Operands {
		if r, ok := op.(reg.Register); ok && kindOf(r) != kMask {
			w = max(w, int(r.Size()))
		}
	}
	if w > 0 {
		return w
	}
	switch in.Opcode[len(in.Opcode)-1] {
	case 'B':
		return 1
	case 'W':
		return 2
	case 'L':
		return 4
	case 'Q':
		return 8
	}
	return 64
}

func equalBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
