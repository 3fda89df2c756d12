package compose

import (
	"fmt"
	"strconv"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// tiers are the ISA tiers of a TierKnob, by the feature level whose
// dispatch plan names their variants.
var tiers = []struct{ value, level string }{{"avx2", cpu.LevelV3}, {"avx512", cpu.LevelV4}}

// TierKnob returns the composition knob key over the registered kernels
// named kernels: per ISA tier the host can run, every kernel's variant
// dispatch selects at that tier (the host's own plan at its own level,
// the compiled table's level default below it), and the generic code of
// every kernel as the reference. A tier whose plan is generic for every
// kernel is left out. It reads the registry only: each choice forces its
// variants through their records' Use.
func TierKnob(key string, kernels ...string) Knob {
	generics := make([]string, len(kernels))
	for i := range generics {
		generics[i] = variant.GenericName
	}
	generic := Choice{Value: "generic", Use: useAll(kernels, generics)}
	kn := Knob{Key: key, Generic: generic, Choices: []Choice{generic}}
	host := cpu.Host()
	for _, t := range tiers {
		if cpu.LevelRank(host.Level()) < cpu.LevelRank(t.level) {
			continue
		}
		names := make([]string, len(kernels))
		var features []string
		all := true
		for i, k := range kernels {
			name, f := planAt(k, t.level, host)
			names[i], features = name, append(features, f...)
			all = all && name == variant.GenericName
		}
		if !all {
			kn.Choices = append(kn.Choices, Choice{Value: t.value, Features: features, Use: useAll(kernels, names)})
		}
	}
	return kn
}

// planAt returns the variant dispatch selects for kernel at size 0 on the
// host (its own level) or on a synthetic CPU of level, and its features.
func planAt(kernel, level string, host *cpu.CPU) (string, []string) {
	on := host
	if host.Level() != level {
		c, err := cpu.LevelCPU(level)
		if err != nil {
			return variant.GenericName, nil
		}
		on = c
	}
	plan := dispatch.Resolve(on, dispatch.Compiled(), "", kernel, candidates(kernel))
	name := plan.Choices[dispatch.ForSize(plan.Choices, 0)].Variant
	if v := variant.Lookup(kernel, name); v != nil && !v.IsGeneric() {
		return name, v.Features
	}
	return variant.GenericName, nil
}

// candidates returns the dispatchable registered variants of kernel: the
// generic code and every variant of its own (not an external reference,
// not an offset-sweep copy).
func candidates(kernel string) []dispatch.Candidate {
	cands := []dispatch.Candidate{{Name: variant.GenericName}}
	for _, v := range variant.Variants(kernel) {
		if !v.IsGeneric() && !v.External && !v.OffsetSweep {
			cands = append(cands, dispatch.Candidate{Name: v.Name, Features: v.Features, Preferred: v.Preferred})
		}
	}
	return cands
}

// useAll returns the Use of a choice that forces kernels[i] to run
// names[i] (their records' Use), restoring all on an error.
func useAll(kernels, names []string) func() (func(), error) {
	return func() (func(), error) {
		return useEach(len(kernels), func(i int) (func(), error) {
			v := variant.Lookup(kernels[i], names[i])
			if v == nil || v.Use == nil {
				return nil, fmt.Errorf("compose: %s has no registered variant %s that can be forced", kernels[i], names[i])
			}
			return v.Use()
		})
	}
}

// WaysKnob returns the "ways" knob: the number of streams the many-stream
// SHAKEs hash at a time, nr = each of widths (each on keccak's dispatched
// permutation of that width), applied by use (sha3.UseWays), with the
// generic code (use(0): one stream after another) as the reference. No
// choice requires a CPU feature.
func WaysKnob(widths []int, use func(nr int) (restore func(), err error)) Knob {
	choice := func(nr int) func() (func(), error) { return func() (func(), error) { return use(nr) } }
	kn := Knob{Key: "ways", Generic: Choice{Value: "generic", Use: choice(0)}}
	for _, nr := range widths {
		kn.Choices = append(kn.Choices, Choice{Value: strconv.Itoa(nr), Use: choice(nr)})
	}
	return kn
}
