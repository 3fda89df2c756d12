package mca

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"
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
// from a benchfmt result file written by `tunelab sweep`.
func ReadMeasured(path string) ([]Measured, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading results: %w", err)
	}
	defer f.Close()
	return readMeasured(f, path)
}

type measuredKey struct {
	kernel, variant string
	size            int
}

func readMeasured(r io.Reader, name string) ([]Measured, error) {
	samples := map[measuredKey][]float64{}
	br := benchfmt.NewReader(r, name)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		v, ok := res.Value("tsc-cycles/op")
		if !ok {
			continue
		}
		k := keyOf(res)
		samples[k] = append(samples[k], v)
	}
	if err := br.Err(); err != nil {
		return nil, err
	}
	if len(samples) == 0 {
		return nil, errors.New(name + ": no tsc-cycles/op results")
	}
	return medians(samples), nil
}

// keyOf parses "KeccakX4/isa=avx2/.../size=64" with the kernel: config line.
func keyOf(res *benchfmt.Result) measuredKey {
	k := measuredKey{kernel: string(res.GetConfig("kernel"))}
	_, rest, _ := strings.Cut(string(res.Name), "/")
	if i := strings.LastIndex(rest, "/size="); i >= 0 {
		k.size, _ = strconv.Atoi(rest[i+len("/size="):])
		rest = rest[:i]
	}
	k.variant = rest
	return k
}

func medians(samples map[measuredKey][]float64) []Measured {
	var out []Measured
	for k, xs := range samples {
		sort.Float64s(xs)
		m := xs[len(xs)/2]
		if len(xs)%2 == 0 {
			m = (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
		}
		out = append(out, Measured{k.kernel, k.variant, k.size, m, len(xs)})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kernel != b.Kernel {
			return a.Kernel < b.Kernel
		}
		if a.Variant != b.Variant {
			return a.Variant < b.Variant
		}
		return a.Size < b.Size
	})
	return out
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
