package keccak

import (
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/variant"
)

// An impl is one implementation of a kernel: the generic code or a
// generated variant, as its table records it (Fn erased to any: a
// func(*[25]uint64), func(*[2][25]uint64), func(*[4][25]uint64) or
// func(*[8][25]uint64) according to nr), with the states it permutes.
type impl struct {
	variant.Impl[any]
	nr int
}

// erase returns the records of the generated implementations in table,
// the nr-state kernel's.
func erase[F any](nr int, table []variant.Impl[F]) []*impl {
	out := make([]*impl, len(table))
	for i, im := range table {
		out[i] = &impl{nr: nr, Impl: variant.Impl[any]{Name: im.Name, Features: im.Features, Symbol: im.Symbol,
			LoopLabel: im.LoopLabel, OffsetSweep: im.OffsetSweep, Fn: im.Fn}}
	}
	return out
}

// run applies the implementation to len(s) == nr states.
func (m *impl) run(s [][25]uint64) {
	switch f := m.Fn.(type) {
	case func(*[25]uint64):
		f((*[25]uint64)(&s[0]))
	case func(*[2][25]uint64):
		f((*[2][25]uint64)(s))
	case func(*[4][25]uint64):
		f((*[4][25]uint64)(s))
	case func(*[8][25]uint64):
		f((*[8][25]uint64)(s))
	}
}

// trips returns the round-loop iterations per call: 24 rounds over the
// unroll depth, run once per group of states when the groups are permuted
// in sequence (group=seq).
func (m *impl) trips() float64 {
	v := variant.Variant{Name: m.Name}
	passes := 1.0
	if v.Knob("group") == "seq" {
		passes = 2
	}
	return passes * 24 / float64(m.unroll())
}

// unroll returns the rounds per loop iteration from the variant's name.
func (m *impl) unroll() int { return unrollOf(m.Name) }

// kernelName returns the dispatch name of the nr-state kernel.
func kernelName(nr int) string { return fmt.Sprintf("keccak.x%d", nr) }

var (
	widths   = []int{1, 2, 4, 8}
	generics = map[int]*impl{
		1: {nr: 1, Impl: variant.Impl[any]{Name: variant.GenericName, Fn: permuteGeneric}},
		2: {nr: 2, Impl: variant.Impl[any]{Name: variant.GenericName, Fn: permuteX2Generic}},
		4: {nr: 4, Impl: variant.Impl[any]{Name: variant.GenericName, Fn: permuteX4Generic}},
		8: {nr: 8, Impl: variant.Impl[any]{Name: variant.GenericName, Fn: permuteX8Generic}},
	}
	// impls lists every registered implementation per nr, generic first,
	// then the generated ones in table order: the production table's
	// after init, every generated variant after RegisterVariants.
	impls = map[int][]*impl{}
)

// init registers the kernels (the permutations and sha3.256), the generic
// code and the production variants (those the compiled dispatch table can
// select), and points the public functions at the variants dispatch
// selects among them.
func init() {
	prod := prodImpls()
	for _, nr := range widths {
		variant.RegisterKernel(variant.Kernel{
			Name: kernelName(nr), Family: "keccak", Bench: fmt.Sprintf("KeccakX%d", nr),
			Unit: "perm", UnitsPerOp: func(int) float64 { return float64(nr) },
			Doc: fmt.Sprintf("Keccak-f[1600] on %d state(s), state-major [%d][25]uint64", nr, nr),
		})
		impls[nr] = []*impl{generics[nr]}
		variant.Register(generics[nr].variant())
		install(nr, prod[nr])
	}
	registerSHA3(prodAbsorbImpls())
}

// registerLab registers every generated variant not registered yet and
// re-selects among all of them (RegisterVariants); AbsorbBlocks' plan
// last, as it may follow keccak.x1's selection.
func registerLab() {
	lab := labImpls()
	for _, nr := range widths {
		if len(lab[nr]) > 0 {
			install(nr, lab[nr])
		}
	}
	installAbsorbers(labAbsorbImpls())
}

// install registers the implementations of table (generated variants of
// the nr-state kernel, in table order) that are not registered yet, lists
// the generated variants as table does, and selects among them.
func install(nr int, table []*impl) {
	list := []*impl{generics[nr]}
	for _, m := range table {
		if old := byName(nr, m.Name); old != nil {
			m = old
		} else {
			variant.Register(m.variant())
		}
		list = append(list, m)
	}
	impls[nr] = list
	selectVariant(nr)
}

// byName returns the listed implementation of kernel nr named name, or nil.
func byName(nr int, name string) *impl {
	for _, m := range impls[nr] {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// variant describes m for kernels/variant.
func (m *impl) variant() variant.Variant {
	v := m.Impl.Variant(kernelName(m.nr))
	v.New = func(_ int, seed uint64) variant.Instance { return newInstance(m, seed) }
	v.Verify = func(_ int, seed uint64) error { return verify(m, seed, 64) }
	if m.Symbol != "" {
		trips := m.trips()
		v.LoopTrips = func(int) float64 { return trips }
	}
	return v
}

// choose returns the implementation of kernel nr that dispatch selects
// among the generated ones in table (variant.Choose: the compiled table's
// choice, a feature-level default or generic).
func choose(nr int, table []*impl) *impl {
	cands := make([]variant.Impl[*impl], len(table))
	for i, m := range table {
		cands[i] = variant.Impl[*impl]{Name: m.Name, Features: m.Features, OffsetSweep: m.OffsetSweep, Fn: m}
	}
	return variant.Choose(kernelName(nr), generics[nr], cands)
}

// selectVariant points the public function for nr states at the variant
// dispatch selects among the listed ones.
func selectVariant(nr int) {
	m := choose(nr, impls[nr][1:])
	switch f := m.Fn.(type) {
	case func(*[25]uint64):
		permuteX1 = f
	case func(*[2][25]uint64):
		permuteX2 = f
	case func(*[4][25]uint64):
		permuteX4 = f
	case func(*[8][25]uint64):
		permuteX8 = f
	}
	selected[nr] = m.Name
}

// The functions behind the public API, set at init and again by
// RegisterVariants.
var (
	permuteX1 = permuteGeneric
	permuteX2 = permuteX2Generic
	permuteX4 = permuteX4Generic
	permuteX8 = permuteX8Generic
	selected  = map[int]string{}
)

// randomStates fills s with pseudo-random lanes.
func randomStates(s [][25]uint64, r *rand.Rand) {
	for i := range s {
		for j := range s[i] {
			s[i][j] = r.Uint64()
		}
	}
}

// An instance is a prepared input for variant.Instance.
type instance struct {
	m    *impl
	s    [][25]uint64
	seed uint64
}

func newInstance(m *impl, seed uint64) *instance {
	in := &instance{m: m, s: make([][25]uint64, m.nr), seed: seed}
	randomStates(in.s, rand.New(rand.NewPCG(seed, 0x6b656363616b)))
	return in
}

// Run permutes the prepared states n times.
func (in *instance) Run(n int) {
	for i := 0; i < n; i++ {
		in.m.run(in.s)
	}
}

// Check re-verifies the variant on fresh random states.
func (in *instance) Check() error { return verify(in.m, in.seed^0x9e3779b97f4a7c15, 8) }

// verify compares m with the generic code on edge-case states and on
// calls random calls with fresh random states; a difference is returned as
// a *variant.Mismatch naming the input, state and lane.
func verify(m *impl, seed uint64, calls int) error {
	r := rand.New(rand.NewPCG(seed, 0x7665726966))
	got, want := make([][25]uint64, m.nr), make([][25]uint64, m.nr)
	for c := -len(edgeCases); c < calls; c++ {
		input := fmt.Sprintf("random call #%d (seed %#x)", c, seed)
		if c < 0 {
			input = edgeCases[len(edgeCases)+c].name
			edgeCases[len(edgeCases)+c].fill(got)
		} else {
			randomStates(got, r)
		}
		copy(want, got)
		m.run(got)
		generics[m.nr].run(want)
		if err := compare(m, input, got, want); err != nil {
			return err
		}
	}
	return nil
}

// compare returns a *variant.Mismatch for the first differing lane.
func compare(m *impl, input string, got, want [][25]uint64) error {
	for k := range got {
		for i := range got[k] {
			if got[k][i] != want[k][i] {
				return &variant.Mismatch{Kernel: kernelName(m.nr), Variant: m.Name,
					Input: fmt.Sprintf("%s, state %d lane %d", input, k, i), Index: 25*k + i,
					Got: fmt.Sprintf("%#016x", got[k][i]), Want: fmt.Sprintf("%#016x", want[k][i])}
			}
		}
	}
	return nil
}

// edgeCases are structured inputs: all zero, all ones, and states that
// differ only in one lane (to catch lanes crossing between states).
var edgeCases = []struct {
	name string
	fill func(s [][25]uint64)
}{
	{"all-zero states", func(s [][25]uint64) { fillLanes(s, func(k, i int) uint64 { return 0 }) }},
	{"all-ones states", func(s [][25]uint64) { fillLanes(s, func(k, i int) uint64 { return ^uint64(0) }) }},
	{"lane i of state k = k<<8|i", func(s [][25]uint64) { fillLanes(s, func(k, i int) uint64 { return uint64(k<<8 | i) }) }},
	{"single bit per state", func(s [][25]uint64) {
		fillLanes(s, func(k, i int) uint64 { return uint64(b2u(i == (7*k)%25)) << (9 * k % 64) })
	}},
}

func fillLanes(s [][25]uint64, f func(k, i int) uint64) {
	for k := range s {
		for i := range s[k] {
			s[k][i] = f(k, i)
		}
	}
}

func b2u(b bool) int {
	if b {
		return 1
	}
	return 0
}
