package keccak

import (
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// testRates are the sponge rates and the extremes of the lane chain and
// row masks: one lane, two whole rows, 24 lanes.
var testRates = append([]int{8, 80, 192}, spongeRates...)

// absorbLengths returns message lengths around block boundaries at rate:
// nothing to absorb, one to three blocks with and without a tail, and
// (without -short) many blocks.
func absorbLengths(rate int) []int {
	ns := []int{0, 1, rate - 1, rate, rate + 1, 2*rate - 1, 2 * rate, 3*rate + 7}
	if !testing.Short() {
		ns = append(ns, 17*rate+3)
	}
	return ns
}

// missingFeatures returns the features of a variant the host lacks (or
// masks).
func missingFeatures(features []string) []string {
	var out []string
	for _, f := range features {
		if !cpu.Has(f) {
			out = append(out, f)
		}
	}
	return out
}

// An absorbChoice is one size class of AbsorbBlocks' plan: for inputs of
// at most maxSize bytes (0: no bound) it runs fn, sha3.256 variant name
// (or viaPermute) requiring features.
type absorbChoice struct {
	maxSize  int
	name     string
	features []string
	fn       absorbFunc
}

// absorbPlan returns AbsorbBlocks' current plan.
func absorbPlan() []absorbChoice {
	var plan []absorbChoice
	for _, c := range sha3Slot.Planned() {
		ac := absorbChoice{maxSize: c.MaxSize, name: c.Name, fn: c.Fn}
		if m := variant.Find(sha3Slot.Known(), c.Name); m != nil {
			ac.features = m.Features
		}
		plan = append(plan, ac)
	}
	return plan
}

// absorbers returns the registered implementations, generic first, then
// the fused ones in table order.
func absorbers() []*absorber {
	list := []*absorber{genericAbsorber}
	for _, im := range sha3Slot.Known() {
		list = append(list, &absorber{im})
	}
	return list
}

// findAbsorber returns the implementation of list named name, or nil.
func findAbsorber(list []*absorber, name string) *absorber {
	for _, m := range list {
		if m.Name == name {
			return m
		}
	}
	return nil
}

// record returns the registry record of m.
func (m *absorber) record() variant.Variant { return *variant.Lookup(sha3Kernel, m.Name) }

// forEachAbsorber runs f in a subtest per sha3.256 implementation (the
// generic one too if withGeneric), skipping those the host cannot run.
func forEachAbsorber(t *testing.T, withGeneric bool, f func(t *testing.T, m *absorber)) {
	for _, m := range absorbers() {
		if m == genericAbsorber && !withGeneric {
			continue
		}
		t.Run(sha3Kernel+"/"+m.Name, func(t *testing.T) {
			if miss := missingFeatures(m.Features); len(miss) > 0 {
				t.Skipf("host lacks %v", miss)
			}
			f(t, m)
		})
	}
}

// randomState returns a state of pseudo-random lanes.
func randomState(r *rand.Rand) [25]uint64 {
	var a [25]uint64
	for i := range a {
		a[i] = r.Uint64()
	}
	return a
}

// TestAbsorbVariants compares every runnable fused absorb variant with
// the generic absorbing loop at every test rate and at lengths around the
// block boundaries, from random states.
func TestAbsorbVariants(t *testing.T) {
	forEachAbsorber(t, false, func(t *testing.T, m *absorber) {
		r := rand.New(rand.NewPCG(7, 136))
		for _, rate := range testRates {
			for _, n := range absorbLengths(rate) {
				got := randomState(r)
				want := got
				data := randomBytes(r, n)
				m.Fn(&got, data, rate)
				absorbGeneric(&want, data, rate)
				input := fmt.Sprintf("%d bytes at rate %d", n, rate)
				if err := compareLanes(m.Name, input, &got, &want); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// TestAbsorbBlocks checks the public function against the generic loop:
// the bytes consumed, the state, at every test rate; that every size
// class of its plan runs here; and that a bad rate panics as documented.
func TestAbsorbBlocks(t *testing.T) {
	t.Logf("AbsorbBlocks plan: %s (keccak.x1: %s)", planNames(absorbPlan()), selectedOf(1))
	r := rand.New(rand.NewPCG(8, 136))
	for _, rate := range testRates {
		for _, n := range absorbLengths(rate) {
			got := randomState(r)
			want := got
			data := randomBytes(r, n)
			if k, wantK := AbsorbBlocks(&got, data, rate), n-n%rate; k != wantK {
				t.Fatalf("AbsorbBlocks(%d bytes, rate %d) consumed %d, want %d", n, rate, k, wantK)
			}
			absorbGeneric(&want, data, rate)
			if err := compareLanes("AbsorbBlocks ("+planNames(absorbPlan())+")", fmt.Sprintf("%d bytes at rate %d", n, rate), &got, &want); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, c := range absorbPlan() {
		if miss := missingFeatures(c.features); len(miss) > 0 {
			t.Errorf("AbsorbBlocks plan[%d] = %s needs %v, missing here", i, c.name, miss)
		}
	}
	for _, rate := range []int{0, -8, 7, 100, 200, 208} {
		if !panics(func() { AbsorbBlocks(new([25]uint64), make([]byte, 400), rate) }) {
			t.Errorf("AbsorbBlocks at rate %d did not panic", rate)
		}
	}
}

func panics(f func()) (p bool) {
	defer func() { p = recover() != nil }()
	f()
	return false
}

// planNames lists a plan of AbsorbBlocks, for messages.
func planNames(plan []absorbChoice) string {
	s := ""
	for i, c := range plan {
		if i > 0 {
			s += ", "
		}
		bound := "rest"
		if c.maxSize > 0 {
			bound = fmt.Sprintf("<=%d", c.maxSize)
		}
		s += bound + ": " + c.name
	}
	return s
}

// TestSHA3Digests compares the SHA3-256 of every runnable sha3.256
// implementation with crypto/sha3 for every message length up to two
// blocks and a byte (eight blocks without -short).
func TestSHA3Digests(t *testing.T) {
	maxLen := 2*rate256 + 1
	if !testing.Short() {
		maxLen = 8 * rate256
	}
	msg := randomBytes(rand.New(rand.NewPCG(9, 256)), maxLen)
	forEachAbsorber(t, true, func(t *testing.T, m *absorber) {
		var st sha3State
		for n := 0; n <= maxLen; n++ {
			if err := m.checkDigest(&st, fmt.Sprintf("%d-byte message", n), msg[:n], sha3.Sum256(msg[:n])); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestSHA3KATs checks the published digests Verify uses against
// crypto/sha3 and the generic code.
func TestSHA3KATs(t *testing.T) {
	for _, k := range sha3KATs {
		std, gen := sha3.Sum256(k.msg), genericDigest(k.msg)
		if got := hex.EncodeToString(std[:]); got != k.digest {
			t.Errorf("%s: crypto/sha3 gives %s, the table %s", k.name, got, k.digest)
		}
		if gen != std {
			t.Errorf("%s: generic digest %x, crypto/sha3 %x", k.name, gen, std)
		}
	}
}

// TestSHA3Registered runs each sha3.256 variant's Verify and an instance
// Run/Check cycle at a few sizes, as the harness does.
func TestSHA3Registered(t *testing.T) {
	sizes := []int{0, 16, 1000}
	if !testing.Short() {
		sizes = sha3Sizes[:len(sha3Sizes)-1]
	}
	forEachAbsorber(t, true, func(t *testing.T, m *absorber) {
		v := m.record()
		for _, size := range sizes {
			if err := v.Verify(size, 11); err != nil {
				t.Fatal(err)
			}
			in := v.New(size, 12)
			in.Run(2)
			if err := in.Check(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestSHA3Kernel checks the kernel's registration: family, sizes, size
// classes, and that its variants are the generic code and one fused
// variant per non-sweep keccak.x1 variant, named alike.
func TestSHA3Kernel(t *testing.T) {
	k := variant.LookupKernel(sha3Kernel)
	if k == nil || k.Family != "keccak" || !k.SizeClasses || k.Unit != "B" || len(k.Sizes) == 0 {
		t.Fatalf("kernel %s registered as %+v", sha3Kernel, k)
	}
	want := map[string]bool{}
	for _, m := range implsOf(1) {
		if !m.OffsetSweep {
			want[m.Name] = true
		}
	}
	got := map[string]bool{}
	for _, v := range variant.Variants(sha3Kernel) {
		if v.External {
			continue
		}
		got[v.Name] = true
		if !want[v.Name] {
			t.Errorf("%s variant %s: no keccak.x1 variant of that name", sha3Kernel, v.Name)
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("%s: no variant for keccak.x1 %s", sha3Kernel, name)
		}
	}
}

// FuzzAbsorbBlocks compares AbsorbBlocks and every runnable fused variant
// with the generic loop on fuzzer-chosen data, rate and state.
func FuzzAbsorbBlocks(f *testing.F) {
	f.Add([]byte("abc"), uint8(16), uint64(0))
	f.Add(make([]byte, 300), uint8(20), uint64(1))
	f.Add(make([]byte, 1000), uint8(0), ^uint64(0))
	f.Fuzz(func(t *testing.T, data []byte, lanes uint8, seed uint64) {
		rate := 8 * (1 + int(lanes)%maxLanes)
		start := randomState(rand.New(rand.NewPCG(seed, 1)))
		want := start
		absorbGeneric(&want, data, rate)
		got := start
		AbsorbBlocks(&got, data, rate)
		if err := compareLanes("AbsorbBlocks", fmt.Sprintf("fuzz input, rate %d", rate), &got, &want); err != nil {
			t.Fatal(err)
		}
		for _, m := range absorbers()[1:] {
			if len(missingFeatures(m.Features)) == 0 {
				got = start
				m.Fn(&got, data, rate)
				if err := compareLanes(m.Name, fmt.Sprintf("fuzz input, rate %d", rate), &got, &want); err != nil {
					t.Fatal(err)
				}
			}
		}
	})
}

// maxLanes is the most lanes a block covers (rate below 200 bytes).
const maxLanes = 24

// TestAVX512FusedNotDefault checks that an AVX-512 fused absorb loop is
// never the default for a CPU the table does not name (they have not run
// on AVX-512 hardware yet), while scalar and AVX2 ones may be.
func TestAVX512FusedNotDefault(t *testing.T) {
	for _, c := range []struct {
		features []string
		want     bool
	}{{nil, true}, {[]string{"bmi1", "bmi2"}, true}, {[]string{"avx", "avx2"}, true}, {[]string{"avx512f", "avx512vl"}, false}} {
		if got := provenFused(c.features); got != c.want {
			t.Errorf("provenFused(%v) = %v, want %v", c.features, got, c.want)
		}
	}
}
