package align

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/tunelab/tunelab/internal/stats"
)

// Confidence is the confidence level of the per-offset intervals and of the
// sensitivity interval.
const Confidence = stats.Confidence

// A Point summarizes the samples of one arm.
type Point struct {
	Label  string // the offset, or "none"
	Align  string // the align knob value
	Offset int    // requested offset; -1 for align=none
	Place  Placement
	N      int
	// Median, Lo and Hi are the median ns/op and its 95% interval.
	Median, Lo, Hi float64
	// TSC is the median TSC ticks per op.
	TSC float64
	// SimLo and SimHi are the median's interval at the Bonferroni-adjusted
	// confidence that makes the intervals of all offsets hold jointly.
	SimLo, SimHi float64
	// Events are the median front-end counts per op (Analysis.Events).
	Events   []float64
	Excluded string
	Warnings []string
}

// A Sensitivity is the ratio of the slowest offset's median time to the
// fastest's, with a simultaneous interval: if every offset's interval at
// confidence 1-(1-Confidence)/k holds (jointly at least Confidence), the
// true ratio lies in [max Lo / min Hi, max Hi / min Lo].
type Sensitivity struct {
	Ratio, Lo, Hi     float64
	Slowest, Fastest  string
	Offsets           int     // k, the offsets compared
	PerOffsetConf     float64 // the adjusted per-offset confidence
	Significant       bool    // Lo > 1: the placement matters
	InsufficientNotes []string
}

// A Versus compares align=64 (offset 0) with align=none by the
// Mann-Whitney U test.
type Versus struct {
	Delta       float64 // (median64 - medianNone) / medianNone
	P, Alpha    float64
	N1, N2      int
	Significant bool
	Warnings    []string
}

// Verdict says in words what the comparison found.
func (v *Versus) Verdict() string {
	switch {
	case !v.Significant:
		return "no significant difference"
	case v.Delta < 0:
		return "align=64 significantly faster"
	}
	return "align=64 significantly slower"
}

// An Analysis is the statistical summary of a Measurement.
type Analysis struct {
	Kernel, Bench, Base, Entry string
	Size                       int
	// Unit and UnitsPerOp give TSC ticks per unit of work (UnitsPerOp 0:
	// not shown).
	Unit       string
	UnitsPerOp float64
	Rounds     int
	Points     []Point // offset arms, ascending offset
	None       *Point  // align=none, nil if not measured
	Sens       *Sensitivity
	Versus     *Versus
	Events     []string
	Notes      []string
	// Mismatches lists arms whose loop is not at the requested offset.
	Mismatches []string
}

// Analyze summarizes m.
func Analyze(m *Measurement) *Analysis {
	k := m.Set.Kernel
	a := &Analysis{Kernel: k.Name, Bench: k.Bench, Base: m.Set.Base, Entry: m.Entry, Size: m.Size,
		Unit: k.Unit, Rounds: m.Rounds, Events: m.Events,
		Notes: append(slices.Clone(m.Set.Warnings), m.Notes...)}
	if k.UnitsPerOp != nil {
		a.UnitsPerOp = k.UnitsPerOp(m.Size)
	}
	k64 := offsetArms(m)
	conf := 1 - (1-Confidence)/float64(max(k64, 1))
	var s0, sNone *stats.Stat
	for i, arm := range m.Set.Arms {
		p, s := summarize(arm, m, i, conf)
		a.noteMismatch(arm)
		switch {
		case arm.Offset < 0:
			a.None, sNone = &p, s
		default:
			a.Points = append(a.Points, p)
			if arm.Offset == 0 {
				s0 = s
			}
		}
	}
	a.Sens = sensitivity(a.Points, conf)
	if m.Entry == Cold {
		a.Notes = append(a.Notes, "cold entry: each offset is a separate function at its own address, so "+
			"differences include where the whole function lies (its lines, pages and neighbours), not only the loop head's offset")
	}
	if s0 != nil && sNone != nil {
		a.Versus = compare(*s0, *sNone)
	}
	return a
}

// offsetArms counts the measured offset arms.
func offsetArms(m *Measurement) int {
	n := 0
	for i, arm := range m.Set.Arms {
		if arm.Offset >= 0 && m.Excluded[i] == "" && len(m.Samples[i].Ns) > 0 {
			n++
		}
	}
	return n
}

// summarize computes arm i's point and the summary of its times (nil if
// none).
func summarize(arm *Arm, m *Measurement, i int, simConf float64) (Point, *stats.Stat) {
	p := Point{Label: arm.Label(), Align: arm.Align, Offset: arm.Offset, Place: arm.Place, Excluded: m.Excluded[i]}
	smp := m.Samples[i]
	if p.Excluded != "" || len(smp.Ns) == 0 {
		if p.Excluded == "" {
			p.Excluded = "no samples"
		}
		return p, nil
	}
	s := stats.Summarize(smp.Ns)
	sim := stats.SummarizeAt(smp.Ns, simConf)
	p.N, p.Median, p.Lo, p.Hi, p.SimLo, p.SimHi = s.N, s.Median, s.Lo, s.Hi, sim.Lo, sim.Hi
	p.TSC = stats.Median(smp.TSC)
	p.Warnings = s.Warnings
	for j := range m.Events {
		p.Events = append(p.Events, stats.Median(column(smp.Events, j)))
	}
	return p, &s
}

// column returns the j-th entry of every row that has one.
func column(rows [][]float64, j int) []float64 {
	var out []float64
	for _, r := range rows {
		if j < len(r) {
			out = append(out, r[j])
		}
	}
	return out
}

func (a *Analysis) noteMismatch(arm *Arm) {
	switch {
	case arm.Place.Err != "":
		a.Mismatches = append(a.Mismatches, fmt.Sprintf("align=%s: loop not located: %s", arm.Align, arm.Place.Err))
	case !arm.Matches():
		a.Mismatches = append(a.Mismatches, fmt.Sprintf("align=%s: loop head at offset %d, requested %d",
			arm.Align, arm.Place.Offset, arm.Offset))
	}
}

// sensitivity computes the slowest/fastest ratio over the measured
// offsets, nil if fewer than two were measured.
func sensitivity(pts []Point, conf float64) *Sensitivity {
	var live []Point
	for _, p := range pts {
		if p.N > 0 {
			live = append(live, p)
		}
	}
	if len(live) < 2 {
		return nil
	}
	slow := slices.MaxFunc(live, func(x, y Point) int { return cmp.Compare(x.Median, y.Median) })
	fast := slices.MinFunc(live, func(x, y Point) int { return cmp.Compare(x.Median, y.Median) })
	maxLo, maxHi, minLo, minHi := math.Inf(-1), math.Inf(-1), math.Inf(1), math.Inf(1)
	s := &Sensitivity{Ratio: slow.Median / fast.Median, Slowest: slow.Label, Fastest: fast.Label,
		Offsets: len(live), PerOffsetConf: conf}
	for _, p := range live {
		maxLo, maxHi = max(maxLo, p.SimLo), max(maxHi, p.SimHi)
		minLo, minHi = min(minLo, p.SimLo), min(minHi, p.SimHi)
		if math.IsInf(p.SimLo, 0) || math.IsInf(p.SimHi, 0) {
			s.InsufficientNotes = append(s.InsufficientNotes, fmt.Sprintf("offset %s: %d samples are too few for a %.4g interval", p.Label, p.N, conf))
		}
	}
	s.Lo, s.Hi = max(maxLo/minHi, 1), maxHi/minLo
	if minLo <= 0 || math.IsInf(minLo, 0) {
		s.Hi = math.Inf(1)
	}
	if math.IsInf(maxLo, 0) || math.IsInf(minHi, 0) {
		s.Lo = 1
	}
	s.Significant = s.Lo > 1
	return s
}

// compare tests align=64 (s0) against align=none (sNone).
func compare(s0, sNone stats.Stat) *Versus {
	c := stats.UTest(s0, sNone)
	m0, mn := s0.Median, sNone.Median
	v := &Versus{Delta: (m0 - mn) / mn, P: c.P, Alpha: c.Alpha, N1: c.N1, N2: c.N2, Significant: c.P < c.Alpha}
	for _, w := range c.Warnings {
		v.Warnings = append(v.Warnings, w.Error())
	}
	return v
}
