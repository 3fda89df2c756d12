package keccak

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
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

// An absorber is one implementation of sha3.256, as instances and
// verification run it.
type absorber struct {
	variant.Impl[absorbFunc]
}

var (
	genericAbsorber = &absorber{variant.Impl[absorbFunc]{Name: variant.GenericName, Fn: absorbGeneric}}
	// sha3Slot holds the registered implementations and AbsorbBlocks'
	// plan among the generic code and the fused variants of the
	// production tables (prodAbsorbImpls), planned at its first call;
	// registerLab registers them for the lab (sha3LabSpec).
	sha3Slot = &kernelset.Slot[absorbFunc]{Name: sha3Kernel, Generic: absorbGeneric, Resolve: resolveAbsorb,
		MakeTable: prodAbsorbImpls}
)

// viaPermute names, in AbsorbBlocks' plan, the Go loop over the
// dispatched keccak.x1 permutation (absorbViaPermute), which is no
// sha3.256 variant.
const viaPermute = "absorb=go/permute=keccak.x1"

// sha3LabSpec describes the sha3.256 kernel for the lab.
func sha3LabSpec() kernelset.Spec[absorbFunc] {
	return kernelset.Spec[absorbFunc]{
		Family: "keccak", Bench: "SHA3_256",
		Sizes: sha3Sizes, SizeClasses: true, Unit: "B", UnitsPerOp: func(n int) float64 { return float64(n) },
		Doc: "SHA3-256 of an n-byte message: the full blocks absorbed by the variant, then the padded final block",
		Instance: func(name string, fn absorbFunc, size int, seed uint64) variant.Instance {
			return newSHA3Instance(&absorber{variant.Impl[absorbFunc]{Name: name, Fn: fn}}, size, seed)
		},
		VerifyAt: func(name string, _ []string, fn absorbFunc, size int, seed uint64) error {
			return (&absorber{variant.Impl[absorbFunc]{Name: name, Fn: fn}}).verify(size, seed)
		},
		LoopTrips: func(v *variant.Variant) func(int) float64 {
			perBlock := float64(numRounds / unrollOf(v.Name))
			return func(size int) float64 { return float64(max(size, 0)/rate256+1) * perBlock }
		},
	}
}

// mergeTables returns the implementations of the generated tables, each
// name once, in order of first appearance.
func mergeTables(tables ...[]variant.Impl[absorbFunc]) []variant.Impl[absorbFunc] {
	var out []variant.Impl[absorbFunc]
	for _, t := range tables {
		for _, im := range t {
			if variant.Find(out, im.Name) == nil {
				out = append(out, im)
			}
		}
	}
	return out
}

// resolveAbsorb returns what AbsorbBlocks runs for choice c, named name
// and fn where known lists the variant c names (an override, a table
// entry or a default), else, where no entry or default covers c's sizes,
// the fused copy of keccak.x1's selection, or the Go loop over the
// dispatched permutation when x1 has none, is generic or its fused copy
// is not yet proven (see provenFused). It reports a fallback to the fused
// copy to dispatch.
func resolveAbsorb(c dispatch.Choice, name string, fn absorbFunc, known []variant.Impl[absorbFunc]) (string, absorbFunc) {
	if !dispatch.FallsBack(c) && (c.Variant == variant.GenericName || variant.Find(known, c.Variant) != nil) {
		return name, fn
	}
	name, fn = viaPermute, absorbViaPermute
	if m := variant.Find(known, x1.Selected()); m != nil && cpu.Has(m.Features...) && provenFused(m.Features) {
		name, fn = m.Name, m.Fn
	}
	if dispatch.FallsBack(c) && name != viaPermute {
		dispatch.Fallback(sha3Kernel, name, "the fused absorb copy of keccak.x1's choice", false)
	}
	return name, fn
}

// provenFused reports whether the fused absorb loop with features may be
// the default of a CPU the table does not name for sha3.256. The AVX-512
// loops have been verified only by reading their code and their features
// (no AVX-512 host and no emulator has run them yet): until a sweep on
// such a host verifies them and names one in the table, the default there
// keeps the verified AVX-512 permutation under the Go loop.
func provenFused(features []string) bool { return variant.TierWidth(features) < 512 }

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
