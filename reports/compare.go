package reports

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/tunelab/tunelab/internal/stats"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
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

// A compareUnit is a metric CompareSets compares: its benchfmt unit, a
// point's values in it and the factor from those values to the unit.
type compareUnit struct {
	unit   string
	values func(p *Point) []float64
	scale  float64
}

// compareUnits are the metrics a Point holds, primary first. (Points keep
// no B/op, allocs/op, B/s or other custom units.)
var compareUnits = []compareUnit{
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
	for _, u := range compareUnits {
		out = append(out, compareUnitRows(u, old, new, name)...)
	}
	return out
}

// compareUnitRows compares the sets in one unit; points without values in
// it make no row.
func compareUnitRows(u compareUnit, old, new *Set, name func(*Point) string) []CompareRow {
	rows := map[string]*CompareRow{}
	var order []string
	add := func(p *Point, side func(r *CompareRow, s *stats.Stat)) {
		vs := u.values(p)
		if len(vs) == 0 {
			return
		}
		k := name(p)
		if rows[k] == nil {
			rows[k] = &CompareRow{Name: k, Unit: u.unit}
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

// WriteComparison writes one benchstat-style table per unit: per
// benchmark the old and new median, each with its 95% interval ("± 1%"),
// in benchstat's units ("1.718µ" sec/op); the delta, "~" when p > alpha
// (benchmath's FormatDelta); the p-value and sample counts; and, for more
// than one benchmark, the geometric means of the medians and of the
// ratios.
func WriteComparison(w io.Writer, oldName, newName string, rows []CompareRow, alpha float64) error {
	if _, err := fmt.Fprintf(w, "old: %s\nnew: %s\n", oldName, newName); err != nil {
		return err
	}
	for _, u := range compareUnits {
		var these []CompareRow
		for _, r := range rows {
			if r.Unit == u.unit {
				these = append(these, r)
			}
		}
		if len(these) == 0 {
			continue
		}
		if err := writeUnitTable(w, u, these, alpha); err != nil {
			return err
		}
	}
	return nil
}

// writeUnitTable writes the comparison table of one unit.
func writeUnitTable(w io.Writer, u compareUnit, rows []CompareRow, alpha float64) error {
	fmt.Fprintf(w, "\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\told\t\tnew\t\tdelta\n", u.unit)
	cls := benchunit.ClassOf(u.unit)
	for _, r := range rows {
		sc := rowScaler(u, cls, r)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t", r.Name, centerCell(sc, u, r.Old), rangeCell(r.Old), centerCell(sc, u, r.New), rangeCell(r.New))
		if r.Old == nil || r.New == nil {
			fmt.Fprintf(tw, "\n")
			continue
		}
		cmp := benchmath.Comparison{P: r.Delta.P, N1: r.Old.N, N2: r.New.N, Alpha: alpha}
		fmt.Fprintf(tw, "%s\t(%s)\n", cmp.FormatDelta(r.Old.Median, r.New.Median), cmp)
	}
	if len(rows) > 1 {
		fmt.Fprintf(tw, "geomean\t%s\t\t%s\t\t%s\n", geoCell(u, cls, rows, oldStat), geoCell(u, cls, rows, newStat), geoRatioCell(rows))
	}
	return tw.Flush()
}

// rowScaler returns benchstat's common scale for the medians of a row.
func rowScaler(u compareUnit, cls benchunit.Class, r CompareRow) benchunit.Scaler {
	var vs []float64
	for _, s := range []*stats.Stat{r.Old, r.New} {
		if s != nil {
			vs = append(vs, s.Median*u.scale)
		}
	}
	return benchunit.CommonScale(vs, cls)
}

func centerCell(sc benchunit.Scaler, u compareUnit, s *stats.Stat) string {
	if s == nil {
		return "—"
	}
	return sc.Format(s.Median * u.scale)
}

// rangeCell is benchstat's "± x%" of the median's 95% interval (the
// larger distance of a bound from the median), to a tenth of a percent
// where benchstat rounds to whole ones: kernel effects are often smaller.
func rangeCell(s *stats.Stat) string {
	if s == nil {
		return ""
	}
	r := benchmath.Summary{Center: s.Median, Lo: s.Lo, Hi: s.Hi}.PctRangeString()
	if s.Median == 0 || r == "∞" || r == "?" {
		return "± " + r
	}
	return fmt.Sprintf("± %.1f%%", 100*math.Max(s.Hi/s.Median-1, 1-s.Lo/s.Median))
}

func oldStat(r CompareRow) *stats.Stat { return r.Old }
func newStat(r CompareRow) *stats.Stat { return r.New }

// geoCell is the geometric mean of one side's medians ("?" unless all
// are positive).
func geoCell(u compareUnit, cls benchunit.Class, rows []CompareRow, side func(CompareRow) *stats.Stat) string {
	var vs []float64
	for _, r := range rows {
		if s := side(r); s != nil {
			vs = append(vs, s.Median*u.scale)
		}
	}
	if g, ok := geomean(vs); ok {
		return benchunit.Scale(g, cls)
	}
	return "?"
}

// geoRatioCell is the geometric mean of the new/old median ratios as
// benchstat computes it (0/0 counts as 1; x/0 makes it "?").
func geoRatioCell(rows []CompareRow) string {
	var ratios []float64
	for _, r := range rows {
		if r.Old == nil || r.New == nil {
			continue
		}
		switch a, b := r.New.Median, r.Old.Median; {
		case a == b:
			ratios = append(ratios, 1)
		case b == 0:
			return "?"
		default:
			ratios = append(ratios, a/b)
		}
	}
	if g, ok := geomean(ratios); ok {
		return fmt.Sprintf("%+.2f%%", (g-1)*100)
	}
	return "?"
}

// geomean returns the geometric mean of xs, which must all be positive.
func geomean(xs []float64) (float64, bool) {
	if len(xs) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, x := range xs {
		if !(x > 0) {
			return 0, false
		}
		sum += math.Log(x)
	}
	return math.Exp(sum / float64(len(xs))), true
}
