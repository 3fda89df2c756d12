package main

import (
	"fmt"
	"slices"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/variants/internal/sched"
)

// A pass processes a set of layers on groups of slots loaded together.
type pass struct {
	layers  []int // index bits, in order
	regBits []int // register bits varying within a group
}

// nttState is the generator's model of the polynomial while emitting: the
// layout and per-coefficient bounds, which decide reductions and zetas.
type nttState struct {
	g      *gen
	k      nttKnobs
	lay    layout
	bound  [256]interval
	poly   reg.Register
	reduce int // reductions emitted (for the report)
	// scaled marks coefficients already multiplied by the final InvNTT
	// factor: the last layer's zetas carry it for the differences.
	scaled [256]bool
	res    *residency // regs=spill: which slots are in registers
	// bias is, per coefficient, the multiple of q its lane carries on top
	// of its value (canon=exact); biased is set once f[0] and f[1] got it.
	bias   [256]int64
	biased bool
}

// buildNTT emits one NTT or InvNTT function.
func buildNTT(g *gen, sym string, k nttKnobs) {
	TEXT(sym, 0, fmt.Sprintf("func(f *[256]int%d)", g.f.ebits))
	Pragma("noescape")
	s := &nttState{g: g, k: k, lay: identity(g.laneBits)}
	for i := range s.bound {
		s.bound[i] = interval{0, g.f.q - 1}
	}
	s.poly = Load(Param("f"), GP64())
	g.setup()
	passes := s.passes()
	if g.isa.evex {
		// the largest group of any pass (all 8 registers but for merge=4)
		grp := 0
		for _, p := range passes {
			grp = max(grp, 1<<len(p.regBits))
		}
		g.idxBudget = g.isa.regs - 10 - grp
	}
	// The transform is straight-line code: the align knob places its
	// entry block ("body"), reached by a jump over the padding.
	if k.align != asmalign.None {
		JMP(operand.LabelRef("body"))
		k.align.Emit()
		Label("body")
	}
	for pi, p := range passes {
		for _, grp := range s.groups(p) {
			s.runGroup(p, grp, pi == len(passes)-1)
		}
	}
	if k.sched != schedBuilt {
		if k.isa != avx2 || k.align != asmalign.None {
			panic(fmt.Sprintf("%s: sched needs isa=avx2 and align=none", k.name()))
		}
		if err := sched.Last(0, sched.Options{Hoist: k.sched == schedHoist, Regs: avx2.regs}); err != nil {
			panic(err)
		}
	}
	VZEROUPPER()
	RET()
}

// layers lists the index bits of the butterfly layers in execution order.
func (s *nttState) layers() []int {
	var ls []int
	for b := 7; b >= 0 && 1<<b >= s.g.f.minLen; b-- {
		ls = append(ls, b)
	}
	if s.k.inverse {
		for i, j := 0, len(ls)-1; i < j; i, j = i+1, j-1 {
			ls[i], ls[j] = ls[j], ls[i]
		}
	}
	return ls
}

// passes splits the layers: one pass for regs=all and regs=spill; for
// regs=mem the register bits (large strides) are cut from the top into
// chunks of merge layers (3 unless the merge knob says otherwise), one
// pass each, whose groups are the chunk's registers; the last chunk (the
// remaining register bits, at most merge) shares the final pass with the
// in-register layers, its groups padded with top register bits (batching)
// to at least 8 registers.
func (s *nttState) passes() []pass {
	g := s.g
	ls := s.layers()
	if s.k.regs == regsAll || s.k.regs == regsSpill {
		all := make([]int, 0, 8-g.laneBits)
		for b := g.laneBits; b < 8; b++ {
			all = append(all, b-g.laneBits)
		}
		return []pass{{layers: ls, regBits: all}}
	}
	chunk, last := s.chunks()
	out := make([]pass, last+1)
	for _, b := range ls {
		out[chunk[b]].layers = append(out[chunk[b]].layers, b)
	}
	for c := 0; c < last; c++ {
		for b := 7; b >= g.laneBits; b-- {
			if chunk[b] == c {
				out[c].regBits = append(out[c].regBits, b-g.laneBits)
			}
		}
	}
	out[last].regBits = s.finalRegBits(chunk, last)
	if s.k.inverse {
		slices.Reverse(out)
	}
	return out
}

// chunks assigns the index bits to regs=mem passes, counted from the top:
// register bit b (b ≥ laneBits) goes to chunk (7 - b)/merge, the lane bits
// to the last chunk, (8 - laneBits - 1)/merge, which it returns too.
func (s *nttState) chunks() (map[int]int, int) {
	g := s.g
	m := s.k.mergeLayers()
	nreg := 8 - g.laneBits
	last := (nreg - 1) / m
	chunk := map[int]int{}
	for b := 0; b < 8; b++ {
		if b < g.laneBits {
			chunk[b] = last
		} else {
			chunk[b] = (7 - b) / m
		}
	}
	return chunk, last
}

// finalRegBits is the register bits of the final pass: those of the last
// chunk, bottom up, padded with the top register bits to at least 3 (a
// group of 8 registers).
func (s *nttState) finalRegBits(chunk map[int]int, last int) []int {
	g := s.g
	var loBits []int
	for b := g.laneBits; b < 8; b++ {
		if chunk[b] == last {
			loBits = append(loBits, b-g.laneBits)
		}
	}
	for b := 7; len(loBits) < 3; b-- {
		if chunk[b] == last {
			panic(fmt.Sprintf("%s: padding the final pass with its own bit %d", s.k.name(), b))
		}
		loBits = append(loBits, b-g.laneBits)
	}
	return loBits
}

// groups lists, per group, the slots of pass p in order of their group
// position.
func (s *nttState) groups(p pass) [][]int {
	in := map[int]bool{}
	for _, r := range p.regBits {
		in[r] = true
	}
	var fixed []int
	for r := 0; r < 8-s.g.laneBits; r++ {
		if !in[r] {
			fixed = append(fixed, r)
		}
	}
	var out [][]int
	for fv := 0; fv < 1<<len(fixed); fv++ {
		var grp []int
		for v := 0; v < 1<<len(p.regBits); v++ {
			slot := 0
			for i, r := range fixed {
				slot |= (fv >> i & 1) << r
			}
			for i, r := range p.regBits {
				slot |= (v >> i & 1) << r
			}
			grp = append(grp, slot)
		}
		out = append(out, grp)
	}
	return out
}

// runGroup loads a group, runs the pass's layers with the shuffles they
// need, restores the standard order, finishes (last pass) and stores.
func (s *nttState) runGroup(p pass, grp []int, last bool) {
	g := s.g
	regs := map[int]reg.VecVirtual{}
	if s.k.regs == regsSpill {
		s.res = newResidency(s.k.spill, g.isa.regs-spillTemps)
		s.res.trace = s.spillTrace(p, grp)
	} else {
		for _, sl := range grp {
			regs[sl] = g.load(s.slotMem(sl))
		}
	}
	start := s.lay
	for _, b := range p.layers {
		s.preReduce(regs, grp, b)
		s.shuffleTo(regs, grp, p.regBits, goal{bit: b})
		s.layer(regs, grp, b)
		if s.k.reorder == reorderAvoid {
			s.shuffleTo(regs, grp, p.regBits, goal{bit: -1, target: start})
		}
	}
	s.shuffleTo(regs, grp, p.regBits, goal{bit: -1, target: start})
	// resident slots first (regs=spill), in slot order
	order := slices.Clone(grp)
	slices.SortStableFunc(order, func(a, b int) int {
		_, ra := regs[a]
		_, rb := regs[b]
		return cmpBool(rb, ra)
	})
	for _, sl := range order {
		s.need(regs, sl)
		if last {
			regs[sl] = s.finish(regs[sl], sl)
		}
		g.store(regs[sl], s.slotMem(sl))
		s.release(regs, sl)
	}
	// Every group runs the same shuffles; the layout model is per group.
	s.lay = start
}

func (s *nttState) slotMem(sl int) operand.Mem {
	return operand.Mem{Base: s.poly, Disp: sl * s.g.isa.bytes}
}

// A goal is what a shuffle sequence must reach: index bit bit in a
// register (bit >= 0), or the layout target.
type goal struct {
	bit    int
	target layout
}

func (gl goal) reached(l layout) bool {
	if gl.bit >= 0 {
		_, ok := l.inRegister(gl.bit)
		return ok
	}
	return l == gl.target
}

type planKey struct {
	from    layout
	gl      goal
	regBits string
	shuf    shufKnob
	isa     string
	ebits   int
}

var plans = map[planKey][]step{}

// shuffleTo emits the cheapest shuffle sequence reaching gl.
func (s *nttState) shuffleTo(regs map[int]reg.VecVirtual, grp, regBits []int, gl goal) {
	if gl.bit < 0 && s.k.shuf.twoSource() && s.restorePair(regs, grp, regBits, gl.target) {
		return
	}
	steps, byShuffle := s.shufflePlan(regBits, gl)
	for _, st := range steps {
		k := byShuffle[st.s.name]
		for _, sl := range grp {
			if sl>>st.r&1 == 0 {
				s.need(regs, sl, sl|1<<st.r)
				regs[sl], regs[sl|1<<st.r] = k.emit(regs[sl], regs[sl|1<<st.r])
			}
		}
		s.lay = s.lay.step(&k.shuffle, st.r)
	}
}

// shufflePlan returns the cheapest shuffle sequence from the current
// layout reaching gl, and the shuffles by name.
func (s *nttState) shufflePlan(regBits []int, gl goal) ([]step, map[string]*shuf) {
	kinds := s.g.shuffleKinds(s.k.shuf)
	byShuffle := map[string]*shuf{}
	plain := make([]*shuffle, len(kinds))
	for i, k := range kinds {
		plain[i] = &k.shuffle
		byShuffle[k.name] = k
	}
	key := planKey{s.lay, gl, fmt.Sprint(regBits), s.k.shuf, s.g.isa.name, s.g.f.ebits}
	steps, ok := plans[key]
	if !ok {
		steps, _ = plan(s.lay, plain, regBits, gl.reached)
		plans[key] = steps
	}
	return steps, byShuffle
}

// restorePair reaches target with one pair of two-source permutes when the
// layout differs from it only in lane bits and one register bit (VPERMI2B
// for shuf=vbmi, else VPERMI2W/D), or, for shuf=vbmi, with one VPERMB per
// slot when it differs only in lane bits. It reports whether target was
// reached.
func (s *nttState) restorePair(regs map[int]reg.VecVirtual, grp, regBits []int, target layout) bool {
	vbmi := s.k.shuf == shufVBMI
	r, ok := s.pairBit(target)
	switch {
	case !ok:
		return false
	case r < 0 && vbmi && s.lay != target:
		s.permSlots(regs, grp, target)
	case r < 0:
		return s.lay == target
	default:
		s.permPairs(regs, grp, r, target, vbmi)
	}
	s.lay = target
	return true
}

// pairBit returns the one register bit whose position differs between the
// current layout and target (-1 if only lane bits differ); ok is false if
// more than one register bit does.
func (s *nttState) pairBit(target layout) (r int, ok bool) {
	r = -1
	for b := range s.lay.pos {
		p, q := s.lay.pos[b], target.pos[b]
		for _, x := range []int{p, q} {
			if x >= s.g.laneBits && p != q {
				if r >= 0 && r != x-s.g.laneBits {
					return 0, false
				}
				r = x - s.g.laneBits
			}
		}
	}
	return r, true
}

// permSlots permutes every slot of grp into target by one VPERMB each
// (only lane bits differ): lane l takes the lane holding target's
// coefficient of lane l.
func (s *nttState) permSlots(regs map[int]reg.VecVirtual, grp []int, target layout) {
	g := s.g
	for _, sl := range grp {
		s.need(regs, sl)
		idx := make([]int64, g.lanes)
		for l := range idx {
			_, lane := s.find(target.index(sl, l), sl, sl)
			idx[l] = int64(lane)
		}
		regs[sl] = g.permOne(regs[sl], idx)
	}
}

// permPairs permutes every pair of slots of grp differing in register bit
// r into target by two two-source permutes: lane l of each output takes
// the lane (src·lanes + lane of the pair) holding target's coefficient.
func (s *nttState) permPairs(regs map[int]reg.VecVirtual, grp []int, r int, target layout, vbmi bool) {
	g := s.g
	for _, sl := range grp {
		if sl>>r&1 == 1 {
			continue
		}
		s.need(regs, sl, sl|1<<r)
		var idx [2][]int64
		for h, dst := range []int{sl, sl | 1<<r} {
			idx[h] = make([]int64, g.lanes)
			for l := range idx[h] {
				src, lane := s.find(target.index(dst, l), sl, sl|1<<r)
				idx[h][l] = int64(src*g.lanes + lane)
			}
		}
		regs[sl], regs[sl|1<<r] = g.permPairOp(regs[sl], regs[sl|1<<r], idx[0], idx[1], vbmi)
	}
}

// find returns which of slots a (0) or b (1) holds coefficient i, and where.
func (s *nttState) find(i, a, b int) (int, int) {
	for h, sl := range []int{a, b} {
		for l := 0; l < s.g.lanes; l++ {
			if s.lay.index(sl, l) == i {
				return h, l
			}
		}
	}
	panic("coefficient not in the pair")
}

// slotBound is the union of the bounds of the coefficients in slot sl.
func (s *nttState) slotBound(sl int) interval {
	b := s.bound[s.lay.index(sl, 0)]
	for l := 1; l < s.g.lanes; l++ {
		b = b.union(s.bound[s.lay.index(sl, l)])
	}
	return b
}

// biasFirst adds, for canon=exact, the bias to f[0] and f[1] when slot
// x holds them, before their first butterfly.
func (s *nttState) biasFirst(regs map[int]reg.VecVirtual, x int) {
	if s.k.canon != canonExact || s.biased {
		return
	}
	lanes := make([]bool, s.g.lanes)
	found := false
	for l := range lanes {
		if i := s.lay.index(x, l); i < 2 {
			lanes[l], found = true, true
			s.bias[i] = exactBias * s.g.f.q
		}
	}
	if found {
		s.g.biasLanes(regs[x], lanes)
		s.biased = true
	}
}

// reduceSlot emits a reduction of slot sl and updates its bounds.
func (s *nttState) reduceSlot(regs map[int]reg.VecVirtual, sl int) {
	for l := 0; l < s.g.lanes; l++ {
		if s.bias[s.lay.index(sl, l)] != 0 {
			panic(fmt.Sprintf("%s: reduction of a biased slot", s.k.name()))
		}
	}
	s.g.reduce(regs[sl])
	s.reduce++
	for l := 0; l < s.g.lanes; l++ {
		i := s.lay.index(sl, l)
		s.bound[i] = s.g.f.reduceBound(s.bound[i])
	}
}

// layer emits the butterflies of the layer on index bit b for one group.
func (s *nttState) layer(regs map[int]reg.VecVirtual, grp []int, b int) {
	r, _ := s.lay.inRegister(b)
	for _, x := range grp {
		if x>>r&1 == 1 {
			continue
		}
		y := x | 1<<r
		s.need(regs, x, y)
		z := s.zetas(x, b)
		if s.k.inverse {
			s.gsButterfly(regs, x, y, z, b)
			if b == 7 {
				for l := 0; l < s.g.lanes; l++ {
					s.scaled[s.lay.index(y, l)] = true
				}
			}
		} else {
			s.ctButterfly(regs, x, y, z, b)
		}
	}
}

// zetas returns the multiplier vector of the butterflies between slot x
// and its partner on index bit b: zeta·R mod q per lane, so that the
// Montgomery product by it is the product by zeta.
func (s *nttState) zetas(x, b int) mulConst {
	g := s.g
	w := make([]int64, g.lanes)
	for l := range w {
		j := s.lay.index(x, l)
		if j>>b&1 != 0 || s.lay.index(x|1<<(s.lay.pos[b]-g.laneBits), l) != j|1<<b {
			panic("butterfly partners misplaced")
		}
		var z int64
		if s.k.inverse {
			z = g.f.zetaInv(1<<b, j)
			if b == 7 {
				// fold InvNTT's final scaling into the last zetas
				z = z * g.f.invN % g.f.q
			}
		} else {
			z = g.f.zetaFwd(1<<b, j)
		}
		w[l] = z
	}
	return s.constOf(w)
}

// constOf returns the multiplier constant of the product by z (one value
// per lane) for the mul knob: Shoup's (w, w') or Montgomery's (z·R).
func (s *nttState) constOf(z []int64) mulConst {
	if s.k.mul == zetaShoup {
		return s.g.shoupConstOf(z)
	}
	w := make([]int64, len(z))
	for i, x := range z {
		w[i] = s.g.f.mont(x)
	}
	return s.g.mulConstOf(w)
}

// product emits the product of a by the constant c (mul knob).
func (s *nttState) product(a reg.VecVirtual, c mulConst) reg.VecVirtual {
	if s.k.mul == zetaShoup {
		return s.g.shoupMul(a, c)
	}
	return s.g.montMul(a, c)
}

// prodBound bounds product's result for inputs in a.
func (s *nttState) prodBound(a interval, c mulConst) interval {
	if s.k.mul == zetaShoup {
		return s.g.f.shoupBound(a)
	}
	return s.g.f.montBound(a, c.max)
}

// ctButterfly is the Cooley-Tukey butterfly of Algorithms 9 and 41:
// t = zeta·y; y = x - t; x = x + t.
func (s *nttState) ctButterfly(regs map[int]reg.VecVirtual, x, y int, z mulConst, b int) {
	g, f := s.g, s.g.f
	t := s.prodBound(s.slotBound(y), z)
	if !f.fits(s.slotBound(x).add(t)) || !f.fits(s.slotBound(x).sub(t)) {
		s.reduceSlot(regs, x)
	}
	s.biasFirst(regs, x)
	prod := s.product(regs[y], z)
	nx := g.vec()
	g.add(regs[x], prod, nx)
	g.sub(regs[x], prod, prod)
	regs[x], regs[y] = nx, prod
	for l := 0; l < g.lanes; l++ {
		i, j := s.lay.index(x, l), s.lay.index(y, l)
		if s.bias[j] != 0 {
			panic(fmt.Sprintf("%s: biased coefficient %d multiplied", s.k.name(), j))
		}
		s.bias[j] = s.bias[i]
	}
	s.updateBounds(x, y, func(bx, by interval) (interval, interval) {
		tb := s.prodBound(by, z)
		return bx.add(tb), bx.sub(tb)
	})
	s.eager(regs, x, y)
}

// gsButterfly is the Gentleman-Sande butterfly of Algorithms 10 and 42:
// t = x; x = t + y; y = zeta·(y - t).
func (s *nttState) gsButterfly(regs map[int]reg.VecVirtual, x, y int, z mulConst, b int) {
	g, f := s.g, s.g.f
	for !f.fits(s.slotBound(x).add(s.slotBound(y))) || !f.fits(s.slotBound(y).sub(s.slotBound(x))) {
		if s.slotBound(x).abs() >= s.slotBound(y).abs() {
			s.reduceSlot(regs, x)
		} else {
			s.reduceSlot(regs, y)
		}
	}
	d := g.vec()
	g.sub(regs[y], regs[x], d)
	g.add(regs[x], regs[y], regs[x])
	regs[y] = s.product(d, z)
	s.updateBounds(x, y, func(bx, by interval) (interval, interval) {
		return bx.add(by), s.prodBound(by.sub(bx), z)
	})
	s.eager(regs, x, y)
}

// preReduce reduces, for red=pre1 and pre2, every vector of the group
// that may lie outside (-q, q) before the last one or two layers.
func (s *nttState) preReduce(regs map[int]reg.VecVirtual, grp []int, b int) {
	n := s.k.red.preLayers()
	ls := s.layers()
	if n == 0 || len(ls) < n || b != ls[len(ls)-n] {
		return
	}
	for _, sl := range grp {
		if s.slotBound(sl).abs() >= s.g.f.q {
			s.need(regs, sl)
			s.reduceSlot(regs, sl)
		}
	}
}

// eager reduces, for red=eager, every output of a butterfly that may lie
// outside (-q, q).
func (s *nttState) eager(regs map[int]reg.VecVirtual, x, y int) {
	if s.k.red != redEager {
		return
	}
	for _, sl := range []int{x, y} {
		if s.slotBound(sl).abs() >= s.g.f.q {
			s.reduceSlot(regs, sl)
		}
	}
}

func (s *nttState) updateBounds(x, y int, fn func(bx, by interval) (interval, interval)) {
	for l := 0; l < s.g.lanes; l++ {
		i, j := s.lay.index(x, l), s.lay.index(y, l)
		s.bound[i], s.bound[j] = fn(s.bound[i], s.bound[j])
		if !s.g.f.fits(s.bound[i]) || !s.g.f.fits(s.bound[j]) {
			panic(fmt.Sprintf("%s: coefficient bound overflows: %v %v", s.k.name(), s.bound[i], s.bound[j]))
		}
	}
}

// finish applies the final scaling (InvNTT) and brings slot sl into [0, q).
func (s *nttState) finish(x reg.VecVirtual, sl int) reg.VecVirtual {
	g := s.g
	b := s.slotBound(sl)
	if s.k.inverse && !s.slotScaled(sl) {
		c := s.constOf(splatVals(g.lanes, g.f.invN))
		x = s.product(x, c)
		b = s.prodBound(b, c)
	}
	if s.k.canon == canonExact {
		c := s.bias[s.lay.index(sl, 0)]
		for l := 0; l < g.lanes; l++ {
			if s.bias[s.lay.index(sl, l)] != c {
				panic(fmt.Sprintf("%s: slot %d mixes biases", s.k.name(), sl))
			}
		}
		g.canonExact(x, b, c)
		return x
	}
	g.canonical(x, b, s.k.canon == canonBarrett, s.k.canon == canonMin)
	return x
}

// slotScaled reports whether slot sl's coefficients all carry the final
// InvNTT factor already; a slot mixing both is a generator bug.
func (s *nttState) slotScaled(sl int) bool {
	n := 0
	for l := 0; l < s.g.lanes; l++ {
		if s.scaled[s.lay.index(sl, l)] {
			n++
		}
	}
	if n != 0 && n != s.g.lanes {
		panic(fmt.Sprintf("%s: slot %d mixes scaled and unscaled coefficients", s.k.name(), sl))
	}
	return n != 0
}

func splatVals(n int, v int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = v
	}
	return out
}
