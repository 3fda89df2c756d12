package dispatch

import (
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"sync"

	"github.com/tunelab/tunelab/kernels/cpu"
)

var (
	hostOnce  sync.Once
	hostCPU   *cpu.CPU
	overrides map[string]string

	mu     sync.Mutex
	plans  = map[string]KernelPlan{}
	warned = map[string]bool{}

	// warnOut receives one-time warnings (a variable for tests).
	warnOut io.Writer = os.Stderr
)

// initHost takes the host's identity (cpu.Host: the TUNELAB_CPU mask
// applied) and parses TUNELAB_DISPATCH once; warnings about ignored
// entries go to stderr.
func initHost() {
	hostOnce.Do(func() {
		hostCPU = cpu.Host()
		var w []string
		overrides, w = parseOverrides(os.Getenv(EnvDispatch))
		warnOnce(w)
	})
}

// warnOnce prints each warning not printed before.
func warnOnce(warnings []string) {
	mu.Lock()
	defer mu.Unlock()
	for _, w := range warnings {
		if !warned[w] {
			warned[w] = true
			fmt.Fprintf(warnOut, "dispatch: %s\n", w)
		}
	}
}

// Plan returns the dispatch plan of kernel among cands (every dispatchable
// variant, generic included) on the host: a non-empty list of choices in
// increasing MaxSize order whose last is unbounded and whose variants are
// all runnable here. See Resolve for the order of precedence. A family
// calls it once per kernel, at the kernel's first call (after the lab,
// in a lab binary, registered its variants); it records the plan for
// Plans and prints to stderr, once each, the override warnings and a
// note when a TUNELAB_DISPATCH override applies.
func Plan(kernel string, cands []Candidate) []Choice {
	initHost()
	kp := Resolve(hostCPU, Compiled(), overrides[kernel], kernel, cands)
	mu.Lock()
	plans[kernel] = kp
	mu.Unlock()
	warnOnce(kp.Warnings)
	if len(kp.Choices) == 1 && kp.Choices[0].Reason == ReasonOverride {
		warnOnce([]string{fmt.Sprintf("%s entry %q applies: %s runs %q at every size", EnvDispatch, kernel+"="+overrides[kernel], kernel, kp.Choices[0].Variant)})
	}
	return slices.Clone(kp.Choices)
}

// Fallback records that, where kernel's plan fell back to the generic code
// (FallsBack: no table entry or default covers those sizes, or a level
// default names generic), its package runs
// variantName instead, for the reason why (e.g. "the fused copy of
// keccak.x1's choice"): Plans and `tunelab dispatch` then show what runs.
// Call it after Plan, with a variant the host can run.
//
// With foreign, the choices measured on other CPUs (nearest entries and
// feature-level defaults) are replaced too, and the plan records why in
// OwnDefault: for a kernel whose variants' speed depends on the
// measuring host's other choices (the many-stream SHAKEs run keccak's
// dispatched permutations), another CPU's measurement says little.
func Fallback(kernel, variantName, why string, foreign bool) {
	mu.Lock()
	defer mu.Unlock()
	kp, ok := plans[kernel]
	if !ok {
		return
	}
	kp.Choices, kp.Details = slices.Clone(kp.Choices), slices.Clone(kp.Details)
	nearest := false
	for i, c := range kp.Choices {
		if (FallsBack(c) || foreign && Foreign(c)) && c.Variant != variantName {
			nearest = nearest || c.Reason == ReasonNearest
			kp.Choices[i] = Choice{MaxSize: c.MaxSize, Variant: variantName, Reason: ReasonPackage}
			if i < len(kp.Details) {
				kp.Details[i] = "package default: " + why
			}
		}
	}
	if nearest {
		kp.Nearest = slices.Clone(kp.Nearest)
		for i := range kp.Nearest {
			kp.Nearest[i].Used = false
		}
		kp.Table += "; the package runs its own default instead"
	}
	if foreign {
		kp.OwnDefault = why
	}
	plans[kernel] = kp
}

// Foreign reports whether c was measured on another CPU: a nearest
// entry's choice or a feature-level default.
func Foreign(c Choice) bool { return c.Reason == ReasonNearest || c.Reason == ReasonDefault }

// FallsBack reports whether c is the generic fallback of a plan: no
// table entry or default covered its sizes, or a feature-level default
// names the generic code. A package with a runtime default of its own
// (see Fallback) runs that instead.
func FallsBack(c Choice) bool {
	return c.Reason == ReasonGeneric || c.Reason == ReasonDefault && c.Variant == genericName
}

// Overrides returns the parsed TUNELAB_DISPATCH: kernel -> forced variant.
// An override for a kernel that never calls Plan has no effect.
func Overrides() map[string]string {
	initHost()
	return maps.Clone(overrides)
}

// Plans returns the plans recorded by Plan, sorted by kernel. The slices in
// them are shared; callers must not modify them.
func Plans() []KernelPlan {
	mu.Lock()
	defer mu.Unlock()
	out := make([]KernelPlan, 0, len(plans))
	for _, kp := range plans {
		out = append(out, kp)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kernel < out[j].Kernel })
	return out
}
