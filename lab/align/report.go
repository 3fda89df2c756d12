package align

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteText writes the analysis as a table with one row per offset (and
// align=none), followed by the sensitivity, the align=64 versus align=none
// comparison, the placement check and notes.
func WriteText(w io.Writer, a *Analysis) error {
	size := ""
	if a.Size > 0 {
		size = fmt.Sprintf(" size=%d", a.Size)
	}
	fmt.Fprintf(w, "align %s %s%s, %s entry, %d rounds\n", a.Kernel, a.Base, size, a.Entry, a.Rounds)
	fmt.Fprintf(w, "median ns/op with %.0f%% interval (benchmath AssumeNothing); tsc = TSC reference ticks, not core cycles\n\n",
		100*Confidence)
	if err := writeTable(w, a); err != nil {
		return err
	}
	fmt.Fprintln(w)
	for _, line := range a.Findings() {
		fmt.Fprintln(w, line)
	}
	return nil
}

// writeTable writes the per-offset rows.
func writeTable(w io.Writer, a *Analysis) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := []string{"offset", "head", "head%64", "body", "lines", "n", "ns/op", "95% interval", "tsc/op"}
	if a.UnitsPerOp > 0 {
		head = append(head, "tsc/"+a.Unit)
	}
	head = append(head, "vs fastest")
	head = append(head, a.Events...)
	fmt.Fprintln(tw, strings.Join(head, "\t")+"\t")
	fastest := math.NaN()
	if a.Sens != nil {
		fastest = a.Sens.fastestMedian(a.Points)
	}
	for _, p := range a.rows() {
		fmt.Fprintln(tw, strings.Join(a.row(p, fastest), "\t")+"\t")
	}
	return tw.Flush()
}

// rows returns the offset points, then align=none.
func (a *Analysis) rows() []Point {
	rows := append([]Point(nil), a.Points...)
	if a.None != nil {
		rows = append(rows, *a.None)
	}
	return rows
}

// row formats one point.
func (a *Analysis) row(p Point, fastest float64) []string {
	r := []string{p.Label}
	r = append(r, placementCells(p.Place)...)
	if p.N == 0 {
		r = append(r, "0", "-", "excluded: "+p.Excluded)
		return r
	}
	r = append(r, strconv.Itoa(p.N), fmtNum(p.Median), "["+fmtNum(p.Lo)+", "+fmtNum(p.Hi)+"]", fmtNum(p.TSC))
	if a.UnitsPerOp > 0 {
		r = append(r, fmtNum(p.TSC/a.UnitsPerOp))
	}
	r = append(r, fmtPct(p.Median/fastest-1))
	for _, e := range p.Events {
		r = append(r, fmtNum(e))
	}
	return r
}

// placementCells formats the head address, its offset in the line, body size and lines
// crossed ("?" when the loop was not located).
func placementCells(pl Placement) []string {
	if pl.Err != "" {
		return []string{"?", "?", "?", "?"}
	}
	return []string{fmt.Sprintf("%#x", pl.Head), strconv.Itoa(pl.Offset), strconv.Itoa(pl.Size) + "B", strconv.Itoa(pl.LinesCrossed)}
}

func (s *Sensitivity) fastestMedian(pts []Point) float64 {
	for _, p := range pts {
		if p.Label == s.Fastest {
			return p.Median
		}
	}
	return math.NaN()
}

// Findings returns the analysis's conclusions, one line each.
func (a *Analysis) Findings() []string {
	var out []string
	out = append(out, a.sensitivityLine())
	if a.Versus != nil {
		v := a.Versus
		out = append(out, fmt.Sprintf("align=64 vs align=none: %s (p=%.3g, n=%d+%d): %s",
			fmtPct(v.Delta), v.P, v.N1, v.N2, v.Verdict()))
	} else {
		out = append(out, "align=64 vs align=none: not compared (no measured align=none sibling)")
	}
	if len(a.Mismatches) == 0 {
		out = append(out, fmt.Sprintf("placement: all %d loop heads located at the requested offsets", len(a.rows())))
	}
	for _, m := range a.Mismatches {
		out = append(out, "placement MISMATCH: "+m)
	}
	for _, n := range a.Notes {
		out = append(out, "note: "+n)
	}
	return out
}

func (a *Analysis) sensitivityLine() string {
	s := a.Sens
	if s == nil {
		return "sensitivity: not computed (fewer than two offsets measured)"
	}
	verdict := "placement matters"
	if !s.Significant {
		verdict = "not significant (interval includes 1)"
	}
	line := fmt.Sprintf("sensitivity: slowest/fastest = %s [%s, %s] (offset %s / offset %s, %d offsets, simultaneous %.0f%% interval): %s",
		fmtRatio(s.Ratio), fmtRatio(s.Lo), fmtRatio(s.Hi), s.Slowest, s.Fastest, s.Offsets, 100*Confidence, verdict)
	if len(s.InsufficientNotes) > 0 {
		line += "; " + strings.Join(s.InsufficientNotes, "; ")
	}
	return line
}

// fmtNum formats a measurement with four significant digits.
func fmtNum(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsNaN(x):
		return "-"
	case math.Abs(x) >= 1e4:
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'g', 4, 64)
}

func fmtRatio(x float64) string {
	if math.IsInf(x, 1) {
		return "+inf"
	}
	return strconv.FormatFloat(x, 'f', 4, 64)
}

func fmtPct(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return fmt.Sprintf("%+.2f%%", 100*x)
}
