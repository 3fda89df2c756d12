package keccak

import (
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/variant"
)

// An impl is one implementation of a kernel: the generic code or a
// generated variant, as its table records it (Fn erased to any: a
// func(*[25]uint64), func(*[2][25]uint64), func(*[4][25]uint64) or
// func(*[8][25]uint64) according to nr), with the states it permutes;
// instances and verification run it on states of any width.
type impl struct {
	variant.Impl[any]
	nr int
}

// erase returns the record of the generated implementation im of the
// nr-state kernel.
func erase[F any](nr int, im variant.Impl[F]) *impl {
	return &impl{nr: nr, Impl: variant.Impl[any]{Name: im.Name, Features: im.Features, Symbol: im.Symbol,
		LoopLabel: im.LoopLabel, OffsetSweep: im.OffsetSweep, Fn: im.Fn}}
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

// trips returns the round-loop iterations per call of variant v: 24
// rounds over the unroll depth, run once per group of states when the
// groups are permuted in sequence (group=seq).
func trips(v *variant.Variant) func(int) float64 {
	passes := 1.0
	if v.Knob("group") == "seq" {
		passes = 2
	}
	t := passes * 24 / float64(unrollOf(v.Name))
	return func(int) float64 { return t }
}

// kernelName returns the dispatch name of the nr-state kernel.
func kernelName(nr int) string { return fmt.Sprintf("keccak.x%d", nr) }

// tables are the generated tables of the four permutation kernels.
type tables struct {
	x1 []variant.Impl[func(*[25]uint64)]
	x2 []variant.Impl[func(*[2][25]uint64)]
	x4 []variant.Impl[func(*[4][25]uint64)]
	x8 []variant.Impl[func(*[8][25]uint64)]
}

var (
	widths   = []int{1, 2, 4, 8}
	generics = map[int]*impl{
		1: erase(1, variant.Impl[any]{Name: variant.GenericName, Fn: permuteGeneric}),
		2: erase(2, variant.Impl[any]{Name: variant.GenericName, Fn: permuteX2Generic}),
		4: erase(4, variant.Impl[any]{Name: variant.GenericName, Fn: permuteX4Generic}),
		8: erase(8, variant.Impl[any]{Name: variant.GenericName, Fn: permuteX8Generic}),
	}
)

// The slots of the permutations, each its own statically initialized
// variable (see kernelset.Slot): a program links the generated
// permutations of only the widths it calls, each planned at its first
// call and, once RegisterVariants added the lab's, among all of them.
// Their tables are read through functions: the compiler builds a slot
// that copies a generated table at init (which would link every
// width), not one that calls a function.
var (
	x1 = kernelset.Slot[func(*[25]uint64)]{Name: "keccak.x1", Generic: permuteGeneric,
		MakeTable: func() []variant.Impl[func(*[25]uint64)] { return prodImplsX1 }}
	x2 = kernelset.Slot[func(*[2][25]uint64)]{Name: "keccak.x2", Generic: permuteX2Generic,
		MakeTable: func() []variant.Impl[func(*[2][25]uint64)] { return prodImplsX2 }}
	x4 = kernelset.Slot[func(*[4][25]uint64)]{Name: "keccak.x4", Generic: permuteX4Generic,
		MakeTable: func() []variant.Impl[func(*[4][25]uint64)] { return prodImplsX4 }}
	x8 = kernelset.Slot[func(*[8][25]uint64)]{Name: "keccak.x8", Generic: permuteX8Generic,
		MakeTable: func() []variant.Impl[func(*[8][25]uint64)] { return prodImplsX8 }}
)

// labSpec describes the nr-state kernel for the lab.
func labSpec[F any](nr int) kernelset.Spec[F] {
	return kernelset.Spec[F]{
		Family: "keccak", Bench: fmt.Sprintf("KeccakX%d", nr),
		Unit: "perm", UnitsPerOp: func(int) float64 { return float64(nr) },
		Doc: fmt.Sprintf("Keccak-f[1600] on %d state(s), state-major [%d][25]uint64", nr, nr),
		Instance: func(name string, fn F, _ int, seed uint64) variant.Instance {
			return newInstance(erase(nr, variant.Impl[F]{Name: name, Fn: fn}), seed)
		},
		VerifyAt: func(name string, _ []string, fn F, _ int, seed uint64) error {
			return verify(erase(nr, variant.Impl[F]{Name: name, Fn: fn}), seed, 64)
		},
		LoopTrips: trips,
	}
}

// registerLab registers every generated variant not registered yet and
// re-selects among all of them (RegisterVariants); AbsorbBlocks' plan
// last, as it may follow keccak.x1's selection.
func registerLab() {
	lab := labTables()
	x1.AddLab(labSpec[func(*[25]uint64)](1), lab.x1)
	x2.AddLab(labSpec[func(*[2][25]uint64)](2), lab.x2)
	x4.AddLab(labSpec[func(*[4][25]uint64)](4), lab.x4)
	x8.AddLab(labSpec[func(*[8][25]uint64)](8), lab.x8)
	sha3Slot.AddLab(sha3LabSpec(), labAbsorbImpls())
}

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

// PermutationFeatures returns the CPU features of the variant of the
// nr-state permutation (nr = 1, 2, 4 or 8) named name, among those this
// program knows (the production table, and the lab's after
// RegisterVariants); nil for the generic code or an unknown name or nr.
func PermutationFeatures(nr int, name string) []string {
	switch nr {
	case 1:
		return x1.Features(name)
	case 2:
		return x2.Features(name)
	case 4:
		return x4.Features(name)
	case 8:
		return x8.Features(name)
	}
	return nil
}

// PermutationSelected returns the name of the variant of the nr-state
// permutation (nr = 1, 2, 4 or 8) that runs now (planning it, if it was
// not called yet); the generic name for an unknown nr.
func PermutationSelected(nr int) string {
	switch nr {
	case 1:
		return x1.Selected()
	case 2:
		return x2.Selected()
	case 4:
		return x4.Selected()
	case 8:
		return x8.Selected()
	}
	return variant.GenericName
}
