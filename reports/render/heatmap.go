package render

import (
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/reports"
)

// A heatCell is one cell of a heat map: t in [-1, 1] colours it from red
// (regression) through white to green (gain); text is written in it and
// title is its tooltip. A nil cell was not measured.
type heatCell struct {
	t           float64
	text, title string
}

// A heatMap is a table of cells: one row per label, one column per model.
type heatMap struct {
	cols  []string
	rows  []string
	cells [][]*heatCell
}

// newHeatMap returns an empty heat map with one column per model, and
// each model's column.
func newHeatMap(models []*reports.Model) (*heatMap, map[*reports.Model]int) {
	h := &heatMap{}
	col := map[*reports.Model]int{}
	for j, m := range models {
		h.cols = append(h.cols, m.Label())
		col[m] = j
	}
	return h, col
}

// Heat map layout: row height, cell width bounds, header line height.
const (
	heatRowH  = 18
	heatMinW  = 64
	heatMaxW  = 150
	heatLineH = 17 // a header line: lineH and a gap
)

// svg draws the heat map; column headers wrap to the cell width.
func (h *heatMap) svg(w io.Writer, kind, title string) {
	labels := make([]string, len(h.rows))
	for i, l := range h.rows {
		labels[i] = fitText(l, maxLabelW)
	}
	labelW := maxTextW(labels) + 10
	cellW := math.Min(heatMaxW, math.Max(heatMinW, maxTextW(h.cols)+10))
	heads, lines := make([][]string, len(h.cols)), 1
	for j, c := range h.cols {
		heads[j] = wrapText(c, cellW-6)
		lines = max(lines, len(heads[j]))
	}
	top := float64(lines*heatLineH) + 4
	d := &svgDoc{w: labelW + cellW*float64(len(h.cols)) + 2, h: top + float64(len(h.rows)*heatRowH) + 2}
	drawHeads(d, heads, labelW, cellW)
	for i := range h.rows {
		y := top + float64(i*heatRowH)
		d.open("", h.rows[i])
		d.text(labelW-6, y+13, "end", "", labels[i])
		d.close()
		for j, c := range h.cells[i] {
			if c != nil {
				drawHeatCell(d, labelW+cellW*float64(j), y, cellW, c)
			}
		}
	}
	d.write(w, kind, title)
}

// drawHeads writes each column's header lines centred over its cells.
func drawHeads(d *svgDoc, heads [][]string, labelW, cellW float64) {
	for j, head := range heads {
		for k, line := range head {
			d.text(labelW+cellW*(float64(j)+0.5), baseline(titleTop)+float64(heatLineH*k), "middle", "", line)
		}
	}
}

// drawHeatCell draws one cell at (x, y).
func drawHeatCell(d *svgDoc, x, y, cw float64, c *heatCell) {
	d.open("", c.title)
	d.marks++
	d.printf(`<path class="hc" fill="%s" d="M%s %sh%sv%sh%sz"/>`, heatColor(c.t), num(x+1), num(y+1), num(cw-2), num(heatRowH-2), num(2-cw))
	d.text(x+cw/2, y+13, "middle", "", fitText(c.text, cw-4))
	d.close()
}

// heatColor maps t in [-1, 1] to red (#d73027), white, green (#1a9850).
func heatColor(t float64) string {
	t = math.Max(-1, math.Min(1, t))
	to := [3]float64{0x1a, 0x98, 0x50}
	if t < 0 {
		to, t = [3]float64{0xd7, 0x30, 0x27}, -t
	}
	var c [3]int
	for i := range c {
		c[i] = int(math.Round(0xf7 + (to[i]-0xf7)*t))
	}
	return fmt.Sprintf("#%02x%02x%02x", c[0], c[1], c[2])
}

// heatModels returns the models with results, sorted by ID.
func (r report) heatModels() []*reports.Model {
	seen := map[*reports.Model]bool{}
	var out []*reports.Model
	for _, g := range r.Groups {
		if !seen[g.Model] {
			seen[g.Model] = true
			out = append(out, g.Model)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID() < out[j].ID() })
	return out
}

// speedupMap is the heat map of each group's winner against its
// reference: one row per kernel and size, one column per model; green
// where the winner is faster than the reference, red where it is slower,
// white where the difference is not significant.
func (r report) speedupMap(models []*reports.Model) *heatMap {
	h, col := newHeatMap(models)
	row := map[string]int{}
	for _, g := range sortedGroups(r.Groups) {
		key := reports.GroupTitle(g)
		if _, ok := row[key]; !ok {
			row[key] = len(h.rows)
			h.rows = append(h.rows, key)
			h.cells = append(h.cells, make([]*heatCell, len(models)))
		}
		if s, ok := reports.GroupSpeedup(g); ok {
			h.cells[row[key]][col[g.Model]] = r.speedupCell(g, s)
		}
	}
	return h
}

// speedupCell colours a speed-up by log2, saturating at 4× either way.
func (r report) speedupCell(g *reports.Group, s reports.Speedup) *heatCell {
	t := 0.0
	if s.Delta.P < r.Options.Alpha && s.Speed() > 0 {
		l := math.Log2(s.Speed()) / 2
		t = math.Copysign(math.Pow(math.Min(math.Abs(l), 1), 0.6), l)
	}
	return &heatCell{t: t, text: reports.FormatSpeed(s.Speed()) + "×",
		title: fmt.Sprintf("%s on %s: %s vs %s: %s", reports.GroupTitle(g), g.Model.Label(), g.Decision.Winner, s.RefLabel(), s.String(r.Options.Alpha))}
}

// sortedGroups returns groups sorted by kernel and size.
func sortedGroups(groups []*reports.Group) []*reports.Group {
	out := append([]*reports.Group(nil), groups...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kernel != out[j].Kernel {
			return out[i].Kernel < out[j].Kernel
		}
		return out[i].Size < out[j].Size
	})
	return out
}

// winnersMap is the heat map of every variant that wins a group on some
// model: one row per kernel, size and such variant, one column per model,
// each cell the variant's time against that model's winner at that size.
// Green: it is the winner, or not significantly slower; white near +12%;
// red from +25%. A green cell beside a red one is a gain on one CPU and a
// regression on another.
func (r report) winnersMap(models []*reports.Model) *heatMap {
	h, col := newHeatMap(models)
	byKey := map[string][]*reports.Group{}
	var keys []string
	for _, g := range sortedGroups(r.Groups) {
		k := reports.GroupTitle(g)
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], g)
	}
	for _, k := range keys {
		for _, v := range groupWinners(byKey[k]) {
			cells := make([]*heatCell, len(models))
			for _, g := range byKey[k] {
				cells[col[g.Model]] = r.winnerCell(g, v)
			}
			h.rows = append(h.rows, k+" "+v)
			h.cells = append(h.cells, cells)
		}
	}
	return h
}

// groupWinners returns the distinct winners of groups, in order, when
// they are measured on two or more models.
func groupWinners(groups []*reports.Group) []string {
	if len(groups) < 2 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, g := range groups {
		if w := g.Decision.Winner; w != "" && !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// winnerCell is variant v in group g against g's winner (nil when either
// was not measured there).
func (r report) winnerCell(g *reports.Group, v string) *heatCell {
	row, w := reports.RowOf(g, v), reports.RowOf(g, g.Decision.Winner)
	if row == nil || w == nil {
		return nil
	}
	where := fmt.Sprintf("%s %s on %s", reports.GroupTitle(g), v, g.Model.Label())
	if row == w {
		return &heatCell{t: 1, text: "winner", title: where + ": the winner"}
	}
	d := stats.Compare(row.Stat, w.Stat)
	if !d.Significant(r.Options.Alpha, r.Options.Threshold) {
		return &heatCell{t: 0.7, text: stats.FormatPct(d.Pct) + " n.s.", title: where + ": " + d.String() + " against the winner, not a significant difference"}
	}
	t := 1 - 2*math.Min(1, math.Max(0, math.Log1p(d.Pct))/math.Log(1.25))
	return &heatCell{t: t, text: stats.FormatPct(d.Pct), title: where + ": " + d.String() + " against " + g.Decision.Winner}
}
