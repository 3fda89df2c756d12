package keccak

import (
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// pkgPath prefixes assembly symbols as runtime.FuncForPC reports them.
const pkgPath = "github.com/tunelab/tunelab/kernels/keccak"

// An impl is one implementation of a kernel: the generic code or a
// generated variant. fn is a func(*[25]uint64), func(*[2][25]uint64),
// func(*[4][25]uint64) or func(*[8][25]uint64) according to nr.
type impl struct {
	name, symbol, loopLabel string
	nr                      int
	features                []string
	codeBytes               int
	offsetSweep             bool
	fn                      any
}

// run applies the implementation to len(s) == nr states.
func (m *impl) run(s [][25]uint64) {
	switch f := m.fn.(type) {
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
	v := variant.Variant{Name: m.name}
	passes := 1.0
	if v.Knob("group") == "seq" {
		passes = 2
	}
	return passes * 24 / float64(m.unroll())
}

// unroll returns the rounds per loop iteration from the variant's name.
func (m *impl) unroll() int {
	v := variant.Variant{Name: m.name}
	var u int
	fmt.Sscan(v.Knob("unroll"), &u)
	return max(u, 1)
}

// kernelName returns the dispatch name of the nr-state kernel.
func kernelName(nr int) string { return fmt.Sprintf("keccak.x%d", nr) }

var (
	widths   = []int{1, 2, 4, 8}
	generics = map[int]*impl{
		1: {name: variant.GenericName, nr: 1, fn: permuteGeneric},
		2: {name: variant.GenericName, nr: 2, fn: permuteX2Generic},
		4: {name: variant.GenericName, nr: 4, fn: permuteX4Generic},
		8: {name: variant.GenericName, nr: 8, fn: permuteX8Generic},
	}
	// impls lists every implementation per nr, generic first.
	impls = map[int][]*impl{}
)

func init() {
	for _, nr := range widths {
		variant.RegisterKernel(variant.Kernel{
			Name: kernelName(nr), Family: "keccak", Bench: fmt.Sprintf("KeccakX%d", nr),
			Unit: "perm", UnitsPerOp: func(int) float64 { return float64(nr) },
			Doc: fmt.Sprintf("Keccak-f[1600] on %d state(s), state-major [%d][25]uint64", nr, nr),
		})
		impls[nr] = []*impl{generics[nr]}
	}
	for i := range asmImpls {
		m := &asmImpls[i]
		impls[m.nr] = append(impls[m.nr], m)
	}
	for _, nr := range widths {
		for _, m := range impls[nr] {
			variant.Register(m.variant())
		}
		selectVariant(nr)
	}
}

// variant describes m for kernels/variant.
func (m *impl) variant() variant.Variant {
	v := variant.Variant{
		Kernel: kernelName(m.nr), Name: m.name, Features: m.features,
		LoopLabel: m.loopLabel, CodeBytes: m.codeBytes, OffsetSweep: m.offsetSweep,
		New:    func(_ int, seed uint64) variant.Instance { return newInstance(m, seed) },
		Verify: func(_ int, seed uint64) error { return verify(m, seed, 64) },
	}
	if m.symbol != "" {
		v.Symbol = pkgPath + "." + m.symbol
		trips := m.trips()
		v.LoopTrips = func(int) float64 { return trips }
	}
	return v
}

// selectVariant points the public function for nr states at the variant
// dispatch selects (offset-sweep variants are not candidates).
func selectVariant(nr int) {
	var cands []dispatch.Candidate
	byName := map[string]*impl{}
	for _, m := range impls[nr] {
		if !m.offsetSweep {
			cands = append(cands, dispatch.Candidate{Name: m.name, Features: m.features})
			byName[m.name] = m
		}
	}
	plan := dispatch.Plan(kernelName(nr), cands)
	m := byName[plan[dispatch.ForSize(plan, 0)].Variant]
	if m == nil || !dispatch.Has(m.features...) {
		m = generics[nr]
	}
	switch f := m.fn.(type) {
	case func(*[25]uint64):
		permuteX1 = f
	case func(*[2][25]uint64):
		permuteX2 = f
	case func(*[4][25]uint64):
		permuteX4 = f
	case func(*[8][25]uint64):
		permuteX8 = f
	}
	selected[nr] = m.name
}

// The functions behind the public API, set once at init.
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
				return &variant.Mismatch{Kernel: kernelName(m.nr), Variant: m.name,
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
