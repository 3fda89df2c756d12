package render

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
)

// TestGroupChartOffScale draws test.fixed on Zen 4: the generic variant
// (1 µs, 7.3× the winner) must not scale the axis but be an annotated
// off-scale marker; ext=ref (0.87×) lies within reach and is drawn.
func TestGroupChartOffScale(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	g := r.FindGroup("", "test.fixed", 0)
	w := reports.RowOf(g, g.Decision.Winner)
	bars, rest := chartRows(g, w, "winner")
	ax := chartAxis(bars)
	if ax.hi >= 7 || ax.hi < 200/137.2 || ax.lo > 120/137.2 {
		t.Errorf("axis %.2f–%.2f: want it to span the candidates (up to 1.46×) and ext=ref (0.87×), not the generic code (7.3×)", ax.lo, ax.hi)
	}
	var b bytes.Buffer
	groupChartSVG(&b, g)
	svg := b.String()
	for _, want := range []string{`<path class="o" d="M`, ">1µs 7.29×</text>", ">winner<title>isa=avx512vl/unroll=2/align=64</title>", ">unroll=1<title>"} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q:\n%s", want, svg)
		}
	}
	h := rowY(len(bars)) + 26
	if rest != "" {
		h += rowH
	}
	if !strings.Contains(svg, ` height="`+num(h)+`"`) {
		t.Errorf("chart height is not proportional to its %d rows (want %v):\n%.300s", len(bars), h, svg)
	}
}

func TestRatioTicks(t *testing.T) {
	ax := logAxis{lo: 0.8, hi: 4, x0: 0, x1: 380}
	ticks := ratioTicks(ax, 44)
	has1 := false
	for i, tk := range ticks {
		has1 = has1 || tk == 1
		for _, o := range ticks[i+1:] {
			if d := math.Abs(ax.at(tk) - ax.at(o)); d < 44 {
				t.Errorf("ticks %v and %v are %.0f px apart, want at least 44", tk, o, d)
			}
		}
	}
	if !has1 || len(ticks) < 4 {
		t.Errorf("ticks %v: want 1 and at least three others", ticks)
	}
}

// TestSizeSeriesTiers checks the per-tier lines of test.sized on Zen 4:
// scalar (isa=scalar and isa=bmi2, whose best at 64 B is bmi2), 256- and
// 512-bit tiers and the generic code.
func TestSizeSeriesTiers(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	ss, unit := sizeSeries(r.KernelGroups(r.Set.Models[0], "test.sized"))
	var names []string
	for _, s := range ss {
		names = append(names, s.name)
	}
	if got := strings.Join(names, ", "); got != "best scalar, best 256-bit, best 512-bit, isa=generic" {
		t.Errorf("series %q", got)
	}
	if unit != "TSC cycles/B" {
		t.Errorf("unit %q, want TSC cycles/B (test.sized is registered in bytes)", unit)
	}
	if p := ss[0].pts[0]; p.size != 64 || p.variant != "isa=bmi2" {
		t.Errorf("best scalar at %d B is %s, want isa=bmi2 at 64 B", p.size, p.variant)
	}
	drawn, legend := splitOffScale(append(ss, &lineSeries{name: "far", pts: []linePoint{{64, 1e6, "far"}}}))
	if len(drawn) != len(ss) || !strings.Contains(legend[len(ss)], "off scale") {
		t.Errorf("a series 1000× above the rest: drawn %d of %d, legend %q", len(drawn), len(ss)+1, legend[len(ss)])
	}
}

// TestWinnersMapGainAndRegression finds the seed's picture in the
// multi-host fixtures: a variant that wins on one model and is
// significantly slower on the other.
func TestWinnersMapGainAndRegression(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	h := report{r}.winnersMap(report{r}.heatModels())
	found := false
	for i, cells := range h.rows {
		a, b := h.cells[i][0], h.cells[i][1]
		if a != nil && b != nil && (a.text == "winner" && b.t < 0 || b.text == "winner" && a.t < 0) {
			found = true
			t.Logf("%s: %s / %s", cells, a.text, b.text)
		}
	}
	if !found {
		t.Errorf("winners map has no row that wins on one model and regresses on the other: %v", h.rows)
	}
	if sm := (report{r}).speedupMap(report{r}.heatModels()); len(sm.rows) != 5 || len(sm.cols) != 2 {
		t.Errorf("speed-up map %d×%d, want 5 kernel/size rows × 2 models", len(sm.rows), len(sm.cols))
	}
}

func TestHeatColor(t *testing.T) {
	for _, c := range []struct {
		t    float64
		want string
	}{{1, "#1a9850"}, {0, "#f7f7f7"}, {-1, "#d73027"}, {-5, "#d73027"}} {
		if got := heatColor(c.t); got != c.want {
			t.Errorf("heatColor(%v) = %s, want %s", c.t, got, c.want)
		}
	}
}

func TestFitText(t *testing.T) {
	if got := fitText("isa=avx2/unroll=2", 10*charW); got != "isa=avx2/…" {
		t.Errorf("fitText = %q", got)
	}
	if got := fitText("short", 100); got != "short" {
		t.Errorf("fitText = %q", got)
	}
}

func TestWrapText(t *testing.T) {
	got := wrapText("Zen 4 (without avx512bw,avx512cd,avx512dq,avx512f,avx512vl)", 24*charW)
	want := []string{"Zen 4 (without avx512bw,", "avx512cd,avx512dq,", "avx512f,avx512vl)"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("wrapText = %q, want %q", got, want)
	}
	for _, l := range got {
		if textW(l) > 24*charW {
			t.Errorf("line %q is wider than 24 glyphs", l)
		}
	}
}
