package render

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
	"golang.org/x/perf/benchmath"
	"golang.org/x/perf/benchunit"
)

// WriteComparison writes one benchstat-style table per unit: per
// benchmark the old and new median, each with its 95% interval ("± 1%"),
// in benchstat's units ("1.718µ" sec/op); the delta, "~" when p > alpha
// (benchmath's FormatDelta); the p-value and sample counts; and, for more
// than one benchmark, the geometric means of the medians and of the
// ratios.
func WriteComparison(w io.Writer, oldName, newName string, rows []reports.CompareRow, alpha float64) error {
	if _, err := fmt.Fprintf(w, "old: %s\nnew: %s\n", oldName, newName); err != nil {
		return err
	}
	for _, u := range reports.CompareUnits {
		var these []reports.CompareRow
		for _, r := range rows {
			if r.Unit == u.Unit {
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
func writeUnitTable(w io.Writer, u reports.CompareUnit, rows []reports.CompareRow, alpha float64) error {
	fmt.Fprintf(w, "\n")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\told\t\tnew\t\tdelta\n", u.Unit)
	cls := benchunit.ClassOf(u.Unit)
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
func rowScaler(u reports.CompareUnit, cls benchunit.Class, r reports.CompareRow) benchunit.Scaler {
	var vs []float64
	for _, s := range []*stats.Stat{r.Old, r.New} {
		if s != nil {
			vs = append(vs, s.Median*u.Scale)
		}
	}
	return benchunit.CommonScale(vs, cls)
}

func centerCell(sc benchunit.Scaler, u reports.CompareUnit, s *stats.Stat) string {
	if s == nil {
		return "—"
	}
	return sc.Format(s.Median * u.Scale)
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

func oldStat(r reports.CompareRow) *stats.Stat { return r.Old }

func newStat(r reports.CompareRow) *stats.Stat { return r.New }

// geoCell is the geometric mean of one side's medians ("?" unless all
// are positive).
func geoCell(u reports.CompareUnit, cls benchunit.Class, rows []reports.CompareRow, side func(reports.CompareRow) *stats.Stat) string {
	var vs []float64
	for _, r := range rows {
		if s := side(r); s != nil {
			vs = append(vs, s.Median*u.Scale)
		}
	}
	if g, ok := geomean(vs); ok {
		return benchunit.Scale(g, cls)
	}
	return "?"
}

// geoRatioCell is the geometric mean of the new/old median ratios as
// benchstat computes it (0/0 counts as 1; x/0 makes it "?").
func geoRatioCell(rows []reports.CompareRow) string {
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
