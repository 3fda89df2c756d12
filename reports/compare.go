package reports

import (
	"github.com/tunelab/tunelab/internal/stats"
)

// A CompareRow is one benchmark in one unit of an old/new comparison.
type CompareRow struct {
	// Name is the benchmark's full name (without the GOMAXPROCS suffix),
	// prefixed by the CPU model when either set holds several models.
	Name string
	// Unit is the metric compared: "sec/op" (whose Stats hold ns) or
	// "tsc-cycles/op".
	Unit     string
	Old, New *stats.Stat // nil when missing on that side
	// Delta is New relative to Old when both are present: Pct is the
	// ratio of the medians minus one, P the Mann-Whitney U p-value.
	Delta stats.Delta
}

// A CompareUnit is a metric CompareSets compares: its benchfmt unit, a
// point's values in it and the factor from those values to the unit.
type CompareUnit struct {
	Unit   string
	values func(p *Point) []float64
	Scale  float64
}

// CompareUnits are the metrics a Point holds, primary first. (Points keep
// no B/op, allocs/op, B/s or other custom units.)
var CompareUnits = []CompareUnit{
	{"sec/op", func(p *Point) []float64 { return p.NS }, 1e-9},
	{"tsc-cycles/op", func(p *Point) []float64 { return p.TSC }, 1},
}

// CompareSets matches the benchmarks of two sets by full name (and CPU
// model when either set holds several models) and compares them per unit
// as benchstat does by default: medians with their 95% intervals
// (benchmath AssumeNothing) and the Mann-Whitney U test of old against
// new. Rows come unit by unit (sec/op, then tsc-cycles/op where measured),
// in old's order, then new-only benchmarks.
func CompareSets(old, new *Set) []CompareRow {
	multi := len(old.Models) > 1 || len(new.Models) > 1
	name := func(p *Point) string {
		if multi {
			return p.Model.Label() + " " + p.FullName
		}
		return p.FullName
	}
	var out []CompareRow
	for _, u := range CompareUnits {
		out = append(out, compareUnitRows(u, old, new, name)...)
	}
	return out
}

// compareUnitRows compares the sets in one unit; points without values in
// it make no row.
func compareUnitRows(u CompareUnit, old, new *Set, name func(*Point) string) []CompareRow {
	rows := map[string]*CompareRow{}
	var order []string
	add := func(p *Point, side func(r *CompareRow, s *stats.Stat)) {
		vs := u.values(p)
		if len(vs) == 0 {
			return
		}
		k := name(p)
		if rows[k] == nil {
			rows[k] = &CompareRow{Name: k, Unit: u.Unit}
			order = append(order, k)
		}
		s := stats.Summarize(vs)
		side(rows[k], &s)
	}
	for _, p := range old.Points {
		add(p, func(r *CompareRow, s *stats.Stat) { r.Old = s })
	}
	for _, p := range new.Points {
		add(p, func(r *CompareRow, s *stats.Stat) { r.New = s })
	}
	out := make([]CompareRow, 0, len(order))
	for _, k := range order {
		r := rows[k]
		if r.Old != nil && r.New != nil {
			r.Delta = compareStats(*r.Old, *r.New)
		}
		out = append(out, *r)
	}
	return out
}

// compareStats returns new relative to old, with benchstat's U test of old
// against new (also when old's median is 0, where Compare gives none).
func compareStats(old, new stats.Stat) stats.Delta {
	d := stats.Compare(new, old)
	d.P = stats.UTest(old, new).P
	return d
}
