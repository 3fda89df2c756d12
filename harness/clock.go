package harness

import (
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/tunelab/tunelab/kernels/variant"
)

// The core clock is estimated without a PMU from a dependent chain of
// single-cycle additions (the calibration kernel's unperturbed chain: one
// core cycle per addition on every x86-64 core) timed against the TSC,
// right before and after every sample, so that turbo and throttling
// changes during a sweep are tracked sample by sample.
const (
	clockKernel  = "calib"
	clockVariant = "isa=amd64/eps=0/align=64"
	// clockOps is the chain ops per probe run (1000 additions each: about
	// 10 µs), clockRuns the runs per probe, of which the fastest counts
	// (an interrupt only ever adds ticks).
	clockOps  = 10
	clockRuns = 3
)

// A clockProbe measures core cycles per TSC tick.
type clockProbe struct {
	in       variant.Instance
	cyclesOp float64 // dependent additions per op
}

// newClockProbe returns the probe, or nil when the chain is not
// registered, cannot run here or the host has no TSC.
func newClockProbe(seed uint64) *clockProbe {
	k, v := variant.LookupKernel(clockKernel), variant.Lookup(clockKernel, clockVariant)
	if k == nil || v == nil || k.UnitsPerOp == nil || len(MissingFeatures(v)) > 0 || readTSC() == 0 {
		return nil
	}
	p := &clockProbe{in: v.New(0, seed), cyclesOp: k.UnitsPerOp(0)}
	p.in.Run(clockOps) // fault the code in
	return p
}

// ratio returns the core cycles per TSC tick of the fastest of clockRuns
// probe runs, 0 without a probe.
func (p *clockProbe) ratio() float64 {
	if p == nil {
		return 0
	}
	best := math.MaxFloat64
	for i := 0; i < clockRuns; i++ {
		c0 := readTSC()
		p.in.Run(clockOps)
		best = min(best, float64(readTSC()-c0))
	}
	return clockOps * p.cyclesOp / best
}

// around runs measure between two probes and records their mean ratio.
func (p *clockProbe) around(measure func() Sample) Sample {
	r0 := p.ratio()
	s := measure()
	if r1 := p.ratio(); r0 > 0 && r1 > 0 {
		s.CoreRatio = (r0 + r1) / 2
	}
	return s
}

// A ClockEstimate summarizes the core-clock ratios of a sweep's samples.
type ClockEstimate struct {
	Samples int
	// GHz is the median estimated core clock; Lo and Hi the 5th and 95th
	// percentiles, the spread turbo changes and noise give.
	GHz, Lo, Hi float64
}

// estimateClock summarizes core-cycle ratios (per TSC tick) at tscHz.
func estimateClock(ratios []float64, tscHz float64) (ClockEstimate, bool) {
	if len(ratios) == 0 || tscHz <= 0 {
		return ClockEstimate{}, false
	}
	rs := slices.Clone(ratios)
	slices.Sort(rs)
	at := func(q float64) float64 { return rs[int(q*float64(len(rs)-1))] * tscHz / 1e9 }
	return ClockEstimate{Samples: len(rs), GHz: at(0.5), Lo: at(0.05), Hi: at(0.95)}, true
}

// String formats the estimate in one line.
func (c ClockEstimate) String() string {
	return fmt.Sprintf("%.3g GHz (5th-95th percentile %.3g-%.3g GHz, %d samples)", c.GHz, c.Lo, c.Hi, c.Samples)
}

// writeClock prints the sweep's core-clock estimate, if any.
func writeClock(w io.Writer, rep *Report, tscHz float64) {
	var rs []float64
	for _, g := range rep.Groups {
		rs = append(rs, g.CoreRatios...)
	}
	if c, ok := estimateClock(rs, tscHz); ok {
		fmt.Fprintf(w, "core clock (est., dependent-add chain vs TSC %.3g GHz): %s; est-core-cycles/op = tsc-cycles/op x core/TSC ratio of each sample\n", tscHz/1e9, c)
	}
}
