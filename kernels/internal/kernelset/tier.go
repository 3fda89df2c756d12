package kernelset

import (
	"github.com/tunelab/tunelab/internal/compose"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// UseAll makes each slot use the variant of the same index in names (as
// Slot.Use) and returns a function that restores them all; on an error it
// restores those it changed.
func UseAll(slots []Tiered, names []string) (restore func(), err error) {
	var undo []func()
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	for i, s := range slots {
		r, err := s.Use(names[i])
		if err != nil {
			restore()
			return nil, err
		}
		undo = append(undo, r)
	}
	return restore, nil
}

// A Tiered is a Slot of any function type, as TierKnob and UseAll take
// them.
type Tiered interface {
	Kernel() string
	// planAt returns the variant dispatch selects at level and its
	// features.
	planAt(level string, host *cpu.CPU) (name string, features []string)
	Use(name string) (func(), error)
}

// planAt returns the variant dispatch selects for s's kernel at size 0 on
// the host (its own level) or on a synthetic CPU of level.
func (s *Slot[F]) planAt(level string, host *cpu.CPU) (string, []string) {
	on := host
	if host.Level() != level {
		c, err := cpu.LevelCPU(level)
		if err != nil {
			return variant.GenericName, nil
		}
		on = c
	}
	plan := dispatch.Resolve(on, dispatch.Compiled(), "", s.prod.Kernel, variant.Candidates(s.known))
	name := plan.Choices[dispatch.ForSize(plan.Choices, 0)].Variant
	if im := variant.Find(s.known, name); im != nil {
		return name, im.Features
	}
	return variant.GenericName, nil
}

// tiers are the ISA tiers of a TierKnob, by the feature level whose
// dispatch plan names their variants.
var tiers = []struct{ value, level string }{{"avx2", cpu.LevelV3}, {"avx512", cpu.LevelV4}}

// TierKnob returns the whole-operation composition knob key over slots:
// per ISA tier the host can run, every slot's variant dispatch selects at
// that tier (the host's own plan at its own level, the compiled table's
// level default below it), and the generic code of every slot as the
// reference. A tier whose plan is generic for every slot is left out.
func TierKnob(key string, slots ...Tiered) compose.Knob {
	use := func(names []string) func() (func(), error) {
		return func() (func(), error) { return UseAll(slots, names) }
	}
	generics := make([]string, len(slots))
	for i := range generics {
		generics[i] = variant.GenericName
	}
	generic := compose.Choice{Value: "generic", Use: use(generics)}
	kn := compose.Knob{Key: key, Generic: generic, Choices: []compose.Choice{generic}}
	host := cpu.Host()
	for _, t := range tiers {
		if cpu.LevelRank(host.Level()) < cpu.LevelRank(t.level) {
			continue
		}
		names := make([]string, len(slots))
		var features []string
		all := true
		for i, s := range slots {
			name, f := s.planAt(t.level, host)
			names[i], features = name, append(features, f...)
			all = all && name == variant.GenericName
		}
		if !all {
			kn.Choices = append(kn.Choices, compose.Choice{Value: t.value, Features: features, Use: use(names)})
		}
	}
	return kn
}
