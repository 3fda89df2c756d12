package nttfield

import (
	"github.com/tunelab/tunelab/internal/compose"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// tiers are the ISA tiers of the ntt knob, by the feature level whose
// dispatch plan names their variants.
var tiers = []struct{ value, level string }{{"avx2", cpu.LevelV3}, {"avx512", cpu.LevelV4}}

// TierKnob returns the "ntt" knob of whole-operation compositions: per
// ISA tier the host can run, the NTT, InvNTT and MulNTT variants dispatch
// selects at that tier (the host's own plan at its own level, the compiled
// table's level default below it, so that the composition space holds
// only what the kernel sweeps chose), and the generic code as the
// reference. A tier whose plan is the generic code for all three kernels
// is left out.
func (s *Set[E]) TierKnob() compose.Knob {
	generic := compose.Choice{Value: "generic", Use: func() (func(), error) {
		return s.Use(variant.GenericName, variant.GenericName, variant.GenericName)
	}}
	kn := compose.Knob{Key: "ntt", Generic: generic, Choices: []compose.Choice{generic}}
	host := cpu.Host()
	for _, t := range tiers {
		if cpu.LevelRank(host.Level()) < cpu.LevelRank(t.level) {
			continue
		}
		if c, ok := s.tierChoice(t.value, t.level, host); ok {
			kn.Choices = append(kn.Choices, c)
		}
	}
	return kn
}

// tierChoice returns the choice of one tier, false if its plan is generic.
func (s *Set[E]) tierChoice(value, level string, host *cpu.CPU) (compose.Choice, bool) {
	names := [3]string{
		planAt(s.t.NTTSpec.Kernel, variant.Candidates(s.knownNTT), level, host),
		planAt(s.t.InvNTTSpec.Kernel, variant.Candidates(s.knownInvNTT), level, host),
		planAt(s.t.MulNTTSpec.Kernel, variant.Candidates(s.knownMulNTT), level, host),
	}
	if names == [3]string{variant.GenericName, variant.GenericName, variant.GenericName} {
		return compose.Choice{}, false
	}
	var features []string
	features = append(features, implFeatures(s.knownNTT, names[0])...)
	features = append(features, implFeatures(s.knownInvNTT, names[1])...)
	features = append(features, implFeatures(s.knownMulNTT, names[2])...)
	return compose.Choice{Value: value, Features: features,
		Use: func() (func(), error) { return s.Use(names[0], names[1], names[2]) }}, true
}

// planAt returns the variant dispatch selects for kernel at size 0 on the
// host (its own level) or on a synthetic CPU of level.
func planAt(kernel string, cands []dispatch.Candidate, level string, host *cpu.CPU) string {
	on := host
	if host.Level() != level {
		c, err := cpu.LevelCPU(level)
		if err != nil {
			return variant.GenericName
		}
		on = c
	}
	plan := dispatch.Resolve(on, dispatch.Compiled(), "", kernel, cands)
	return plan.Choices[dispatch.ForSize(plan.Choices, 0)].Variant
}

func implFeatures[F any](impls []variant.Impl[F], name string) []string {
	if im := variant.Find(impls, name); im != nil {
		return im.Features
	}
	return nil
}
