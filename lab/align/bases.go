package align

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// hostCPU returns the CPU whose features decide what runs: the host with
// TUNELAB_CPU masks applied. Tests replace it with a synthetic CPU.
var hostCPU = cpu.Host

// A Base is one offset-sweep set of a kernel: the variant name without its
// align knob that an align=64 variant and its align=64+N copies share.
type Base struct {
	Name string
	// Features are the CPU features its variants need (their union).
	Features []string
}

// Bases returns the kernel's offset-sweep bases in registration order: the
// names, without the align knob, of its OffsetSweep variants whose align=64
// variant exists.
func Bases(kernel string) []Base {
	var out []Base
	for _, name := range sweepBases(kernel) {
		if sib := siblings(kernel, name); sib["64"] != nil {
			out = append(out, Base{Name: name, Features: featuresOf(sib)})
		}
	}
	return out
}

// featuresOf returns the union of the variants' features, those of the
// align=64 variant first, then in align knob order.
func featuresOf(sib map[string]*variant.Variant) []string {
	var out []string
	for _, k := range append([]string{"64"}, slices.Sorted(maps.Keys(sib))...) {
		if v := sib[k]; v != nil {
			for _, f := range v.Features {
				if !slices.Contains(out, f) {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// chooseBase picks the base to measure on target among bases: the base of
// dispatched (the variant dispatch selects; nil if none) if target runs it;
// else, of the bases target runs, the first as wide as dispatched, else the
// first of the widest. It returns an *UnrunnableError when target runs none.
func chooseBase(kernel string, bases []Base, target *cpu.CPU, dispatched *variant.Variant) (Base, error) {
	var runnable []Base
	for _, b := range bases {
		if len(target.Missing(b.Features...)) == 0 {
			runnable = append(runnable, b)
		}
	}
	if len(runnable) == 0 {
		return Base{}, unrunnable(kernel, bases, target, "")
	}
	if dispatched != nil {
		if i := slices.IndexFunc(runnable, func(b Base) bool { return b.Name == BaseName(dispatched.Name) }); i >= 0 {
			return runnable[i], nil
		}
		if i := slices.IndexFunc(runnable, func(b Base) bool { return variant.TierWidth(b.Features) == variant.TierWidth(dispatched.Features) }); i >= 0 {
			return runnable[i], nil
		}
	}
	best := runnable[0]
	for _, b := range runnable[1:] {
		if variant.TierWidth(b.Features) > variant.TierWidth(best.Features) {
			best = b
		}
	}
	return best, nil
}

// dispatched returns the variant dispatch selects for kernel at size on
// this host, or nil when the kernel has no recorded plan.
func dispatched(kernel string, size int) *variant.Variant {
	for _, kp := range dispatch.Plans() {
		if kp.Kernel == kernel && len(kp.Choices) > 0 {
			return variant.Lookup(kernel, kp.Choices[dispatch.ForSize(kp.Choices, size)].Variant)
		}
	}
	return nil
}

// An UnrunnableError is a request the host's CPU features cannot serve: a
// named base it cannot run, or a kernel none of whose offset-sweep bases
// it can run.
type UnrunnableError struct {
	Kernel string
	// Named is set when the request named the base in Lacking[0].
	Named bool
	// Lacking lists the bases in question, each with the features the
	// host lacks (or TUNELAB_CPU masks) for it.
	Lacking []Lack
	// Runnable is an offset-sweep base the host can run, "" if none.
	Runnable string
	// Masked is set when TUNELAB_CPU hides some of the missing features.
	Masked bool
}

// A Lack is a base and the features the host lacks for it.
type Lack struct {
	Base    string
	Missing []string
}

// Error describes the missing features and names a runnable base.
func (e *UnrunnableError) Error() string {
	var needs []string
	for _, l := range e.Lacking {
		needs = append(needs, l.Base+" needs "+strings.Join(l.Missing, ","))
	}
	lacks := "which this host lacks"
	if e.Masked {
		lacks += " or TUNELAB_CPU masks"
	}
	switch {
	case !e.Named:
		return fmt.Sprintf("%s: no offset-sweep base runs on this host: %s, %s", e.Kernel, strings.Join(needs, "; "), lacks)
	case e.Runnable == "":
		return fmt.Sprintf("%s %s, %s; no offset-sweep base of %s runs here", e.Kernel, strings.Join(needs, "; "), lacks, e.Kernel)
	}
	return fmt.Sprintf("%s %s, %s; runnable base: %s", e.Kernel, strings.Join(needs, "; "), lacks, e.Runnable)
}

// unrunnable builds the error for the bases target cannot run, naming
// runnable as the alternative.
func unrunnable(kernel string, bases []Base, target *cpu.CPU, runnable string) *UnrunnableError {
	e := &UnrunnableError{Kernel: kernel, Runnable: runnable}
	masked := target.MaskedList()
	for _, b := range bases {
		if miss := target.Missing(b.Features...); len(miss) > 0 {
			e.Lacking = append(e.Lacking, Lack{b.Name, miss})
			e.Masked = e.Masked || slices.ContainsFunc(miss, func(f string) bool { return slices.Contains(masked, f) })
		}
	}
	return e
}

// checkRunnable returns an *UnrunnableError naming the default base at
// size as the alternative if target cannot run base, whose variants are sib.
func checkRunnable(kernel, base string, sib map[string]*variant.Variant, size int, target *cpu.CPU) error {
	b := Base{Name: base, Features: featuresOf(sib)}
	if len(target.Missing(b.Features...)) == 0 {
		return nil
	}
	alt, _ := chooseBase(kernel, Bases(kernel), target, dispatched(kernel, size))
	e := unrunnable(kernel, []Base{b}, target, alt.Name)
	e.Named = true
	return e
}
