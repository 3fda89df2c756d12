package ct

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// DefaultN is the number of measurements per target: at 10^6, |t| above
// Threshold is a finding.
const DefaultN = 1_000_000

// ProductionTargets returns a target for every choice of every kernel's
// plan on this host (what production dispatches to, per size class), at
// the smallest size in the class (see classSize), each with n
// measurements, and the choices left out with the reason (keyed "kernel
// variant"): those whose generated functions take public inputs only.
// A choice whose generator declassified instructions is measured and
// labelled with what its timing reveals by design. Whole operations are
// left to OperationTargets.
func ProductionTargets(n int) (targets []Target, skipped map[string]string) {
	skipped = map[string]string{}
	for _, kp := range dispatch.Plans() {
		k := variant.LookupKernel(kp.Kernel)
		if k == nil || k.Operation {
			continue
		}
		lo := 0
		for _, c := range kp.Choices {
			size := classSize(k, lo, c.MaxSize)
			lo = c.MaxSize + 1
			st := Lookup(k.Name, c.Variant)
			if st.PublicOnly() {
				skipped[k.Name+" "+c.Variant] = "public inputs only (the generator declares no secret parameter): no secret to classify"
				continue
			}
			t := Target{
				Name: variantTargetName(k.Name, size, c.Variant), Kernel: k.Name, Variant: c.Variant, Size: size,
				Classes: "fixed vs random input", N: n,
			}
			if why := st.ByDesign(); len(why) > 0 {
				t.Variable = "declassified by its generator: " + strings.Join(why, "; ")
			}
			targets = append(targets, t)
		}
	}
	return targets, skipped
}

// classSize returns the input size to measure a size class [lo, hi] (hi
// 0: unbounded) at: the smallest of the kernel's default sizes in the
// class (the sizes sweeps measure, where the plan's choice was made),
// unless that is above maxClassSize or there is none, then the first
// valid size from lo; 0 for fixed-size kernels.
func classSize(k *variant.Kernel, lo, hi int) int {
	if len(k.Sizes) == 0 {
		return 0
	}
	for _, s := range slices.Sorted(slices.Values(k.Sizes)) {
		if s >= lo && (hi == 0 || s <= hi) && s <= maxClassSize {
			return s
		}
	}
	for s := max(lo, 1); s < max(lo, 1)+256 && (hi == 0 || s <= hi); s++ {
		if k.ValidSize(s) == nil {
			return s
		}
	}
	return k.Sizes[0]
}

// maxClassSize bounds the sizes classSize takes from a kernel's defaults:
// a million measurements of 1 MiB inputs would take too long.
const maxClassSize = 64 << 10

// OperationTargets returns the whole operations' targets (ML-KEM and
// ML-DSA, every parameter set), each with n measurements, and the
// operations left out with the reason.
func OperationTargets(n int) (targets []Target, skipped map[string]string) {
	for _, s := range kemSets {
		for _, c := range opTargets {
			op := s.name + "." + c.op
			targets = append(targets, Target{Name: "op|" + op + "|" + c.classes, Kernel: op, Classes: c.what, Variable: c.variable, N: n})
		}
	}
	skipped = map[string]string{}
	for _, s := range dsaSets {
		for _, c := range dsaTargets {
			op := s.name + "." + c.op
			targets = append(targets, Target{Name: "op|" + op + "|" + c.classes, Kernel: op, Classes: c.what, Variable: c.variable, N: n})
		}
		skipped[s.name+".verify"] = "public inputs only (key, message, signature): no secret to classify"
	}
	return targets, skipped
}

// A Config configures Measure.
type Config struct {
	Start harness.StartRunner
	CPU   int
	Seed  uint64
	// Budget bounds each target's measurement time (0: none).
	Budget time.Duration
}

// A Result is the dynamic check of one target.
type Result struct {
	Target   Target
	Verdict  Verdict
	Measured int // measurements in the tests
	Elapsed  time.Duration
	Err      error
}

// Finding reports whether the result is a finding: |t| above Threshold
// for an operation whose time should not vary with the secret.
func (r *Result) Finding() bool { return r.Err == nil && r.Target.Variable == "" && r.Verdict.Leaks() }

// Measure runs the dynamic check on each target in turn, calling done
// after each.
func Measure(ctx context.Context, cfg Config, targets []Target, done func(*Result)) []*Result {
	var out []*Result
	for i, t := range targets {
		if ctx.Err() != nil {
			break
		}
		start := time.Now()
		d := NewDudect()
		hc := harness.ClassConfig{Start: cfg.Start, CPU: cfg.CPU, Seed: cfg.Seed + uint64(i), N: t.N + 1000, Budget: cfg.Budget}
		_, err := harness.MeasureClasses(ctx, hc, t.Name, d.Add)
		r := &Result{Target: t, Verdict: d.Max(), Measured: d.Measurements(), Elapsed: time.Since(start), Err: err}
		if err != nil {
			r.Err = fmt.Errorf("%s: %w", t.Kernel, err)
		}
		out = append(out, r)
		if done != nil {
			done(r)
		}
	}
	return out
}
