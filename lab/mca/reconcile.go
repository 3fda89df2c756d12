package mca

import (
	"fmt"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
)

// Measured is the median TSC cycles per op of one variant at one size, as
// read from a sweep's result file.
type Measured struct {
	Kernel, Variant string
	Size            int
	CyclesPerOp     float64 // median of tsc-cycles/op samples
	Samples         int
}

// ReadMeasured reads the median tsc-cycles/op per (kernel, variant, size)
// of the CPU model with dispatch key host (all models when host is "")
// from benchfmt result files written by `tunelab sweep`.
func ReadMeasured(path, host string) ([]Measured, error) {
	set, _, err := reports.Read([]string{path})
	if err != nil {
		return nil, err
	}
	var out []Measured
	for _, p := range set.Points {
		if len(p.TSC) == 0 || host != "" && p.Model.Key != host {
			continue
		}
		out = append(out, Measured{p.Kernel, p.Variant, p.Size, stats.Median(p.TSC), len(p.TSC)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no tsc-cycles/op results of this CPU model (%s)", path, host)
	}
	return out, nil
}

// Disagreement is the threshold beyond which prediction and measurement are
// flagged as disagreeing.
const Disagreement = 0.25

// A Comparison puts a prediction next to a measurement of the same loop.
type Comparison struct {
	Kernel, Variant  string
	Size             int
	PredictedPerIter float64
	MeasuredPerIter  float64 // TSC reference cycles per loop iteration
	Ratio            float64 // measured / predicted
	Flagged          bool    // |ratio - 1| > Disagreement
	Note             string
}

// Reconcile compares each result's prediction for mcpu with the measured
// TSC cycles per op, divided by the loop trips per op. Results without trip
// counts or without a measurement are left out.
func Reconcile(rs []*Result, measured []Measured, mcpu string) []Comparison {
	var out []Comparison
	for _, m := range measured {
		r := findResult(rs, m.Kernel, m.Variant)
		if r == nil {
			continue
		}
		p := r.For(mcpu)
		if p == nil || r.TripsPerOp <= 0 {
			continue
		}
		c := Comparison{Kernel: m.Kernel, Variant: m.Variant, Size: m.Size,
			PredictedPerIter: p.CyclesPerIter, MeasuredPerIter: m.CyclesPerOp / r.TripsPerOp}
		c.Ratio = c.MeasuredPerIter / c.PredictedPerIter
		c.Flagged = c.Ratio > 1+Disagreement || c.Ratio < 1-Disagreement
		if c.Flagged {
			c.Note = "disagree by more than 25% (TSC reference cycles, not core cycles)"
		}
		out = append(out, c)
	}
	return out
}

func findResult(rs []*Result, kernel, name string) *Result {
	for _, r := range rs {
		if r.Kernel == kernel && r.Variant == name {
			return r
		}
	}
	return nil
}
