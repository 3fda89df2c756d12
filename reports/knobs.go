package reports

import (
	"fmt"
	"sort"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A KnobEffect is the effect of changing one knob from From to To with all
// other knobs fixed, on one CPU model: the geometric mean over paired
// variants (same kernel, size and other knobs) of the ratio of medians,
// minus one, with the half-width of a 95% interval across pairs.
type KnobEffect struct {
	Model    *Model
	Knob     string
	From, To string
	Pct, PM  float64
	Pairs    int
	Kernels  []string
}

// String formats the effect as
// "align=64 vs none: -1.8% ±0.6% on Zen 4 across 12 pairs".
func (e *KnobEffect) String() string {
	return fmt.Sprintf("%s=%s vs %s: %s %s on %s across %d pairs", e.Knob, e.To, e.From, stats.FormatPct(e.Pct), stats.FormatPM(e.PM), e.Model.Label(), e.Pairs)
}

// Significant reports whether the interval excludes zero.
func (e *KnobEffect) Significant() bool { return e.Pairs > 1 && e.PM < abs(e.Pct) }

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

type effectKey struct{ model, knob, from, to string }

type effectAcc struct {
	model   *Model
	ratios  []float64
	kernels map[string]bool
}

// knobEffects pairs, within each group, variants that differ in exactly
// one knob. External variants and offset-sweep members are left out.
func knobEffects(groups []*Group) []*KnobEffect {
	acc := map[effectKey]*effectAcc{}
	for _, g := range groups {
		for knob, byPattern := range pairIndex(g) {
			for _, byValue := range byPattern {
				addPairs(acc, g, knob, byValue)
			}
		}
	}
	var out []*KnobEffect
	for k, a := range acc {
		c, h := stats.GeoMeanInterval(a.ratios)
		out = append(out, &KnobEffect{Model: a.model, Knob: k.knob, From: k.from, To: k.to, Pct: c, PM: h, Pairs: len(a.ratios), Kernels: sortedKeys(a.kernels)})
	}
	sort.Slice(out, func(i, j int) bool { return effectLess(out[i], out[j]) })
	return out
}

// pairIndex maps knob -> name pattern with that knob as "*" -> knob value
// -> row.
func pairIndex(g *Group) map[string]map[string]map[string]*Row {
	idx := map[string]map[string]map[string]*Row{}
	for _, r := range g.Rows {
		if r.info.external || r.info.offsetSweep || !r.Stat.OK || r.Stat.Median <= 0 {
			continue
		}
		for _, k := range variant.Knobs(r.Variant) {
			p := withKnob(r.Variant, k.Key, "*")
			if idx[k.Key] == nil {
				idx[k.Key] = map[string]map[string]*Row{}
			}
			if idx[k.Key][p] == nil {
				idx[k.Key][p] = map[string]*Row{}
			}
			idx[k.Key][p][k.Value] = r
		}
	}
	return idx
}

func addPairs(acc map[effectKey]*effectAcc, g *Group, knob string, byValue map[string]*Row) {
	values := make([]string, 0, len(byValue))
	for v := range byValue {
		values = append(values, v)
	}
	sort.Slice(values, func(i, j int) bool { return valueLess(values[i], values[j]) })
	for i, from := range values {
		for _, to := range values[i+1:] {
			k := effectKey{g.Model.ID(), knob, from, to}
			a := acc[k]
			if a == nil {
				a = &effectAcc{model: g.Model, kernels: map[string]bool{}}
				acc[k] = a
			}
			a.ratios = append(a.ratios, byValue[to].Stat.Median/byValue[from].Stat.Median)
			a.kernels[g.Kernel] = true
		}
	}
}

func effectLess(a, b *KnobEffect) bool {
	if ma, mb := a.Model.ID(), b.Model.ID(); ma != mb {
		return ma < mb
	}
	if a.Knob != b.Knob {
		return a.Knob < b.Knob
	}
	if a.From != b.From {
		return valueLess(a.From, b.From)
	}
	return valueLess(a.To, b.To)
}
