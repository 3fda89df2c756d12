package main

import (
	"fmt"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

func init() {
	register(&command{
		name:    "verify",
		summary: "check every runnable variant against the generic reference (exit 1 on mismatch)",
		run:     runVerify,
	})
}

func runVerify(e *env, args []string) error {
	fs := newFlags(e, "verify", "verify [--kernel K,...] [--variant GLOB] [--size N,...]")
	kernels := fs.String("kernel", "", "comma-separated kernels (default all, calib included)")
	glob := fs.String("variant", "", "variant glob over knobs, e.g. 'isa=avx512*/align=64'")
	sizes := fs.String("size", "", "comma-separated sizes (default each kernel's sizes)")
	seed := fs.Uint64("seed", 1, "seed of the random inputs")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if err := noArgs(fs); err != nil {
		return err
	}
	sel, err := selection(*kernels, *glob, *sizes, true)
	if err != nil {
		return err
	}
	groups, skips, err := harness.Select(sel)
	if err != nil {
		return &exitError{1, err}
	}
	printSkips(e, skips)
	failed, checked := 0, 0
	for _, g := range groups {
		for _, c := range g.Contenders {
			checked++
			start := time.Now()
			if err := c.Variant.Verify(g.Size, *seed); err != nil {
				failed++
				fmt.Fprintf(e.stdout, "FAIL %s %s: %v\n", g.Key(), c.Label, err)
				continue
			}
			fmt.Fprintf(e.stdout, "ok   %s %s (%v)\n", g.Key(), c.Label, roundDur(time.Since(start)))
		}
	}
	if failed > 0 {
		return &exitError{1, fmt.Errorf("verify: %d of %d variant/size pairs mismatch the generic reference", failed, checked)}
	}
	fmt.Fprintf(e.stdout, "%d variant/size pairs match the generic reference\n", checked)
	return nil
}

func roundDur(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(time.Millisecond)
	}
	return d.Round(time.Microsecond)
}

// selection builds a harness selection from flag values. With no kernels
// named it selects every kernel, leaving out the calibration family unless
// withCalib is set (sweeps measure calib only when asked to).
func selection(kernels, glob, sizes string, withCalib bool) (harness.Selection, error) {
	sel := harness.Selection{Variant: glob}
	ks, err := lookupKernels(kernels)
	if err != nil {
		return sel, err
	}
	for _, k := range ks {
		if kernels != "" || withCalib || k.Family != calibFamily {
			sel.Kernels = append(sel.Kernels, k.Name)
		}
	}
	if _, err := variant.Match("", glob); err != nil {
		return sel, usagef("--variant: %v", err)
	}
	for _, s := range splitList(sizes) {
		var n int
		if _, err := fmt.Sscan(s, &n); err != nil || n < 0 {
			return sel, usagef("--size: bad size %q", s)
		}
		sel.Sizes = append(sel.Sizes, n)
	}
	return sel, nil
}

func printSkips(e *env, skips []harness.Skip) {
	for _, s := range skips {
		fmt.Fprintf(e.stderr, "skipped %s %s: %s\n", s.Kernel, s.Variant, s.Reason)
	}
}
