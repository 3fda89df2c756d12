package profiler

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// hostCPU returns the CPU whose features decide what runs: the host with
// TUNELAB_CPU masks applied. Tests replace it with a synthetic CPU.
var hostCPU = cpu.Host

// Default picks the variant to profile for kernel at size on the host
// (TUNELAB_CPU masks applied): the one kernels/dispatch selects if the
// host runs it; else the runnable generated variant (not external, not an
// offset-sweep copy) of the widest ISA, the first registered among equals;
// else the generic one.
func Default(kernel string, size int) (*variant.Variant, error) {
	if variant.LookupKernel(kernel) == nil {
		return nil, fmt.Errorf("unknown kernel %q", kernel)
	}
	return choose(kernel, variant.Variants(kernel), hostCPU(), dispatched(kernel, size))
}

// choose is Default over the variants vs of kernel on target, where dispatch
// selects dispatched ("" if the kernel has no plan).
func choose(kernel string, vs []*variant.Variant, target *cpu.CPU, dispatched string) (*variant.Variant, error) {
	var best, generic *variant.Variant
	for _, v := range vs {
		switch {
		case !target.Has(v.Features...):
		case v.Name == dispatched:
			return v, nil
		case v.IsGeneric():
			generic = v
		case !v.External && !v.OffsetSweep && (best == nil || variant.TierWidth(v.Features) > variant.TierWidth(best.Features)):
			best = v
		}
	}
	switch {
	case best != nil:
		return best, nil
	case generic != nil:
		return generic, nil
	}
	return nil, fmt.Errorf("kernel %q has no variant this host runs", kernel)
}

// dispatched returns the name of the variant dispatch selects for kernel
// at size on this host, or "" when the kernel has no recorded plan.
func dispatched(kernel string, size int) string {
	for _, kp := range dispatch.Plans() {
		if kp.Kernel == kernel && len(kp.Choices) > 0 {
			return kp.Choices[dispatch.ForSize(kp.Choices, size)].Variant
		}
	}
	return ""
}

// An UnrunnableError is a variant the host's CPU features cannot run.
type UnrunnableError struct {
	Kernel, Variant string
	Missing         []string // features the host lacks or TUNELAB_CPU masks
	Masked          bool     // some of Missing are masked by TUNELAB_CPU
	// Alternative is the variant Default picks instead, "" if none.
	Alternative string
}

// Error names the missing features and the runnable alternative.
func (e *UnrunnableError) Error() string {
	lacks := "which this host lacks"
	if e.Masked {
		lacks = "which this host lacks or TUNELAB_CPU masks"
	}
	msg := fmt.Sprintf("%s %s needs %s, %s", e.Kernel, e.Variant, strings.Join(e.Missing, ","), lacks)
	if e.Alternative == "" {
		return msg + "; no variant of " + e.Kernel + " runs here"
	}
	return msg + "; runnable alternative: " + e.Alternative
}

// Runnable returns nil if the host runs v, else an *UnrunnableError that
// names the variant Default picks for size instead.
func Runnable(v *variant.Variant, size int) error {
	return runnableOn(v, size, hostCPU())
}

func runnableOn(v *variant.Variant, size int, target *cpu.CPU) error {
	miss := target.Missing(v.Features...)
	if len(miss) == 0 {
		return nil
	}
	masked := target.MaskedList()
	e := &UnrunnableError{Kernel: v.Kernel, Variant: v.Name, Missing: miss,
		Masked: slices.ContainsFunc(miss, func(f string) bool { return slices.Contains(masked, f) })}
	if alt, err := choose(v.Kernel, variant.Variants(v.Kernel), target, dispatched(v.Kernel, size)); err == nil {
		e.Alternative = alt.Name
	}
	return e
}
