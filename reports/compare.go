package reports

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"golang.org/x/perf/benchmath"
)

// A CompareRow is one benchmark in an old/new comparison.
type CompareRow struct {
	Name     string // benchmark name, prefixed by the CPU model when sets mix models
	Old, New *Stat  // nil when missing on that side
	Delta    Delta  // New relative to Old
}

// CompareSets matches benchmarks of two sets by full name (and CPU model
// when either set holds several models) and compares their ns/op.
func CompareSets(old, new *Set) []CompareRow {
	multi := len(old.Models) > 1 || len(new.Models) > 1
	key := func(p *Point) string {
		if multi {
			return p.Model.Label() + " " + p.FullName
		}
		return p.FullName
	}
	rows := map[string]*CompareRow{}
	var order []string // first appearance: old's order, then new-only rows
	get := func(p *Point) *CompareRow {
		k := key(p)
		if rows[k] == nil {
			rows[k] = &CompareRow{Name: k}
			order = append(order, k)
		}
		return rows[k]
	}
	for _, p := range old.Points {
		s := Summarize(p.NS)
		get(p).Old = &s
	}
	for _, p := range new.Points {
		s := Summarize(p.NS)
		get(p).New = &s
	}
	out := make([]CompareRow, 0, len(rows))
	for _, k := range order {
		r := rows[k]
		if r.Old != nil && r.New != nil {
			r.Delta = Compare(*r.New, *r.Old)
		}
		out = append(out, *r)
	}
	return out
}

// WriteComparison writes a benchstat-style table: per benchmark the old
// and new median with intervals, the delta ("~" when not significant at
// alpha) and the p-value, then the geometric mean of the ratios.
func WriteComparison(w io.Writer, oldName, newName string, rows []CompareRow, alpha float64) error {
	fmt.Fprintf(w, "old: %s\nnew: %s\n", oldName, newName)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "benchmark\told\t95%% CI\tnew\t95%% CI\tdelta\tp\tn\t\n")
	var logs []float64
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t", r.Name, statCell(r.Old), pmCell(r.Old), statCell(r.New), pmCell(r.New))
		if r.Old == nil || r.New == nil {
			fmt.Fprintf(tw, "\t\t\t\n")
			continue
		}
		cmp := benchmath.Comparison{P: r.Delta.P, Alpha: alpha}
		fmt.Fprintf(tw, "%s\t%s\t%d+%d\t\n", cmp.FormatDelta(r.Old.Median, r.New.Median), pval(r.Delta.P), r.Old.N, r.New.N)
		if r.Old.Median > 0 && r.New.Median > 0 {
			logs = append(logs, math.Log(r.New.Median/r.Old.Median))
		}
	}
	if len(logs) > 0 {
		sum := 0.0
		for _, l := range logs {
			sum += l
		}
		fmt.Fprintf(tw, "geomean\t\t\t\t\t%s\t\t\t\n", pct(math.Exp(sum/float64(len(logs)))-1))
	}
	return tw.Flush()
}

func statCell(s *Stat) string {
	if s == nil {
		return "—"
	}
	return fmtNS(s.Median)
}

func pmCell(s *Stat) string {
	if s == nil {
		return ""
	}
	return s.PM()
}
