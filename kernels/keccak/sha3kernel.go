package keccak

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// The sha3.256 kernel: a whole SHA3-256 (FIPS 202) of an n-byte message,
// whose variants are ways of absorbing its blocks: the generic Go loop
// over the generic permutation, or a fused absorb function generated
// from a keccak.x1 variant and named as that variant. Its dispatch plan,
// by size class, is what AbsorbBlocks runs, at every rate.

const (
	sha3Kernel = "sha3.256"
	rate256    = 136 // bytes: SHA3-256's rate, 1600 - 2*256 bits
)

// sha3Sizes are the kernel's default sweep sizes, message bytes.
var sha3Sizes = []int{16, 64, 256, 1024, 4096, 16384, 65536, 1 << 20}

// absorbFunc absorbs every full rate-byte block of data into a (rate a
// multiple of 8 in [8, 200)), permuting after each, and ignores the bytes
// after the last full block.
type absorbFunc = func(a *[25]uint64, data []byte, rate int)

// An absorber is one implementation of sha3.256.
type absorber struct {
	variant.Impl[absorbFunc]
}

var (
	genericAbsorber = &absorber{variant.Impl[absorbFunc]{Name: variant.GenericName, Fn: absorbGeneric}}
	// absorbers lists the registered implementations, generic first, then
	// the fused ones in table order: production's after init, every
	// generated one after RegisterVariants.
	absorbers = []*absorber{genericAbsorber}
)

// viaPermute names, in an absorbChoice, the Go loop over the dispatched
// keccak.x1 permutation (absorbViaPermute), which is no sha3.256 variant.
const viaPermute = "absorb=go/permute=keccak.x1"

// An absorbChoice is one size class of AbsorbBlocks' plan: for inputs of
// at most maxSize bytes (0: no bound) it runs fn, sha3.256 variant name
// (or viaPermute) requiring features.
type absorbChoice struct {
	maxSize  int
	name     string
	features []string
	fn       absorbFunc
}

// absorbPlan is AbsorbBlocks' plan, in increasing maxSize order, the last
// unbounded; set at init and by RegisterVariants.
var absorbPlan = []absorbChoice{{name: viaPermute, fn: absorbViaPermute}}

// absorbFor returns the function AbsorbBlocks runs for n bytes.
func absorbFor(n int) absorbFunc {
	p := absorbPlan
	for _, c := range p[:len(p)-1] {
		if n <= c.maxSize {
			return c.fn
		}
	}
	return p[len(p)-1].fn
}

// registerSHA3 registers the kernel, its generic variant and the fused
// variants of table, and plans AbsorbBlocks.
func registerSHA3(table []*absorber) {
	variant.RegisterKernel(variant.Kernel{
		Name: sha3Kernel, Family: "keccak", Bench: "SHA3_256",
		Sizes: sha3Sizes, SizeClasses: true, Unit: "B", UnitsPerOp: func(n int) float64 { return float64(n) },
		Doc: "SHA3-256 of an n-byte message: the full blocks absorbed by the variant, then the padded final block",
	})
	variant.Register(genericAbsorber.variant())
	installAbsorbers(table)
}

// installAbsorbers registers the implementations of table not registered
// yet, lists generic and table's, and plans AbsorbBlocks among them.
func installAbsorbers(table []*absorber) {
	list := []*absorber{genericAbsorber}
	for _, m := range table {
		if old := findAbsorber(absorbers, m.Name); old != nil {
			m = old
		} else {
			variant.Register(m.variant())
		}
		list = append(list, m)
	}
	absorbers = list
	selectAbsorb()
}

// absorbersOf returns the implementations of the generated tables, each
// name once, in order of first appearance.
func absorbersOf(tables ...[]variant.Impl[absorbFunc]) []*absorber {
	var out []*absorber
	seen := map[string]bool{}
	for _, t := range tables {
		for _, im := range t {
			if !seen[im.Name] {
				seen[im.Name] = true
				out = append(out, &absorber{im})
			}
		}
	}
	return out
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

// selectAbsorb sets AbsorbBlocks' plan among the listed implementations.
func selectAbsorb() { absorbPlan = planAbsorb(absorbers, x1.Selected()) }

// planAbsorb returns AbsorbBlocks' plan among list (generic first) from
// the dispatch plan of sha3.256, falling back to the variant named x1,
// keccak.x1's selection.
func planAbsorb(list []*absorber, x1 string) []absorbChoice {
	records := make([]variant.Impl[absorbFunc], 0, len(list)-1)
	for _, m := range list[1:] {
		records = append(records, m.Impl)
	}
	plan := dispatch.Plan(sha3Kernel, variant.Candidates(records))
	choices := make([]absorbChoice, len(plan))
	for i, c := range plan {
		choices[i] = planned(list, c, x1)
		choices[i].maxSize = c.MaxSize
		if dispatch.FallsBack(c) && choices[i].name != viaPermute {
			dispatch.Fallback(sha3Kernel, choices[i].name, "the fused absorb copy of keccak.x1's choice", false)
		}
	}
	return choices
}

// planned returns what AbsorbBlocks runs for choice c: the variant c
// names (an override, a table entry or a default), else, where no entry
// or default covers c's sizes, the fused copy of x1 (keccak.x1's
// selection), or the Go loop over the dispatched permutation when x1 has
// none, is generic or its fused copy is not yet proven (see provenFused).
func planned(list []*absorber, c dispatch.Choice, x1 string) absorbChoice {
	if m := findAbsorber(list, c.Variant); m != nil && !dispatch.FallsBack(c) {
		return m.choice()
	}
	if m := findAbsorber(list, x1); m != nil && m != genericAbsorber && cpu.Has(m.Features...) && provenFused(m) {
		return m.choice()
	}
	return absorbChoice{name: viaPermute, fn: absorbViaPermute}
}

// provenFused reports whether the fused absorb loop m may be the default
// of a CPU the table does not name for sha3.256. The AVX-512 loops have
// been verified only by reading their code and their features (no
// AVX-512 host and no emulator has run them yet): until a sweep on such a
// host verifies them and names one in the table, the default there keeps
// the verified AVX-512 permutation under the Go loop.
func provenFused(m *absorber) bool { return variant.TierWidth(m.Features) < 512 }

func (m *absorber) choice() absorbChoice {
	return absorbChoice{name: m.Name, features: m.Features, fn: m.Fn}
}

// variant describes m for kernels/variant.
func (m *absorber) variant() variant.Variant {
	v := m.Variant(sha3Kernel)
	v.New = func(size int, seed uint64) variant.Instance { return newSHA3Instance(m, size, seed) }
	v.Verify = m.verify
	if m.Symbol != "" {
		perBlock := float64(numRounds / unrollOf(m.Name))
		v.LoopTrips = func(size int) float64 { return float64(max(size, 0)/rate256+1) * perBlock }
	}
	return v
}

// numRounds is the number of rounds of Keccak-f[1600].
const numRounds = len(roundConstants)

// unrollOf returns the rounds per loop iteration of a variant name's
// unroll knob (1 without one).
func unrollOf(name string) int {
	v := variant.Variant{Name: name}
	var u int
	fmt.Sscan(v.Knob("unroll"), &u)
	return max(u, 1)
}
