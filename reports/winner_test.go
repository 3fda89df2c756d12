package reports

import (
	"regexp"
	"sort"
	"strings"
	"testing"
)

// testZen4 is the CPU model of synthetic sets.
var testZen4 = &Model{Key: "AuthenticAMD/0x19/0x11", Uarch: "Zen 4", Vendor: "AuthenticAMD", Family: 0x19, Model: 0x11,
	Level: "x86-64-v4", Features: []string{"avx", "avx2", "avx512f", "avx512vl", "bmi2"}}

// spread returns n samples around median, symmetric, with relative steps
// of step (so the median is exact).
func spread(median float64, n int, step float64) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = median * (1 + step*(float64(i)-float64(n-1)/2))
	}
	return out
}

// synth analyzes one synthetic (model, kernel, size) group.
func synth(kernel string, size int, samples map[string][]float64) *Group {
	set := &Set{Models: []*Model{testZen4}}
	for name, ns := range samples {
		set.Points = append(set.Points, &Point{Model: testZen4, Kernel: kernel, Size: size, Variant: name, NS: ns})
	}
	sort.Slice(set.Points, func(i, j int) bool { return pointLess(set.Points[i], set.Points[j]) })
	return Analyze(set, DefaultOptions()).Groups[0]
}

func group(t *testing.T, r *Report, model, kernel string, size int) *Group {
	t.Helper()
	for _, g := range r.Groups {
		if g.Model.Label() == model && g.Kernel == kernel && g.Size == size {
			return g
		}
	}
	t.Fatalf("no group %s %s size %d", model, kernel, size)
	return nil
}

func TestWinnerSignificant(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	g := group(t, r, "Zen 4", "test.fixed", 0)
	d := g.Decision
	if d.Kind != Significant || d.Winner != "isa=avx512vl/unroll=2/align=64" || d.Other != "isa=avx512vl/unroll=2/align=none" {
		t.Fatalf("decision %+v, want avx512vl/unroll=2/align=64 significant over align=none", d)
	}
	if d.Delta.Pct < 0.019 || d.Delta.Pct > 0.022 || d.Delta.P >= 0.05 {
		t.Errorf("runner-up delta %v, want about +2.0%% with p < 0.05", d.Delta)
	}
	if g.Rows[0].Variant != "ext=ref" || !g.Rows[0].External() {
		t.Errorf("fastest row %s should be the external reference (it must not win)", g.Rows[0].Variant)
	}
	for _, row := range g.Rows {
		if row.Variant != "isa=generic" && (!row.HasBase || row.VsBase.Pct >= 0) {
			t.Errorf("%s: vs generic %v, want a negative delta", row.Variant, row.VsBase)
		}
	}
}

func TestWinnerTieKeepsSimpler(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	d := group(t, r, "Zen 4", "test.sized", 64).Decision
	// bmi2 is 0.3% faster (below the 1% threshold): keep scalar, which
	// needs no features.
	if d.Kind != Tie || d.Winner != "isa=scalar" || d.Other != "isa=bmi2" {
		t.Fatalf("decision %+v, want a tie kept on isa=scalar against isa=bmi2", d)
	}
	re := regexp.MustCompile(`^tie: kept isa=scalar; isa=bmi2 -0\.[0-9]% ±[0-9]+\.[0-9]%, p[=<][0-9.e-]+$`)
	if !re.MatchString(d.Note) {
		t.Errorf("note %q does not match %v", d.Note, re)
	}
}

func TestWinnerTieNotSignificant(t *testing.T) {
	// Same distribution shifted by 0.4%, overlapping: not significant.
	g := synth("test.sized", 64, map[string][]float64{
		"isa=scalar": spread(100, 10, 0.01),
		"isa=avx2":   spread(99.6, 10, 0.01),
	})
	d := g.Decision
	if d.Kind != Tie || d.Winner != "isa=scalar" || d.Delta.P < 0.05 {
		t.Fatalf("decision %+v, want a non-significant tie kept on isa=scalar", d)
	}
	if !strings.HasPrefix(d.Note, "tie: kept isa=scalar; isa=avx2 -0.4% ±") {
		t.Errorf("note %q, want \"tie: kept isa=scalar; isa=avx2 -0.4%% ±...\"", d.Note)
	}
}

func TestWinnerTieBreaksOnCodeSize(t *testing.T) {
	// Same features (none registered for either? both avx2): the smaller
	// code wins a tie: unroll=1 (600 bytes) over unroll=2 (800 bytes).
	g := synth("test.fixed", 0, map[string][]float64{
		"isa=avx2/unroll=1/align=64": spread(100, 10, 0.01),
		"isa=avx2/unroll=2/align=64": spread(99.8, 10, 0.01),
	})
	if g.Decision.Kind != Tie || g.Decision.Winner != "isa=avx2/unroll=1/align=64" {
		t.Errorf("decision %+v, want a tie kept on the smaller unroll=1", g.Decision)
	}
}

func TestNoWinnerFromTooFewSamples(t *testing.T) {
	need := MinSamples()
	if Summarize(make([]float64, need-1)).OK || !Summarize(make([]float64, need)).OK {
		t.Fatalf("MinSamples() = %d disagrees with Summarize", need)
	}
	g := synth("test.sized", 64, map[string][]float64{
		"isa=scalar": spread(100, need-1, 0.001),
		"isa=avx2":   spread(50, need-1, 0.001),
	})
	if g.Decision.Kind != NoWinner || g.Decision.Winner != "" {
		t.Errorf("decision %+v from %d samples each, want no winner", g.Decision, need-1)
	}
	r, _ := load(t, "zen4.txt")
	d := group(t, r, "Zen 4", "test.sized", 4096).Decision
	if d.Kind != NoWinner || !strings.Contains(d.Note, "isa=avx512vl has the lowest median but only 4 samples") {
		t.Errorf("size 4096: decision %+v, want no winner because avx512vl has 4 samples", d)
	}
}

func TestOnlyCandidate(t *testing.T) {
	g := synth("test.fixed", 0, map[string][]float64{
		"isa=generic": spread(100, 10, 0.001),
		"ext=ref":     spread(50, 10, 0.001),
	})
	if g.Decision.Kind != Only || g.Decision.Winner != "isa=generic" {
		t.Errorf("decision %+v, want isa=generic as the only non-external candidate", g.Decision)
	}
}

func TestLayoutGuard(t *testing.T) {
	r, _ := load(t, "zen4.txt", "sweep.txt")
	if len(r.Layout) != 1 {
		t.Fatalf("got %d layout noise entries, want 1", len(r.Layout))
	}
	ln := r.Layout[0]
	if ln.Family != "test" || ln.Offsets != 16 || ln.Sensitivity < 0.025 || ln.Sensitivity > 0.035 {
		t.Errorf("layout noise %v, want family test, 16 offsets, about 3%%", ln)
	}
	g := group(t, r, "Zen 4", "test.fixed", 0)
	d := g.Decision
	// align=64 is 2% faster than align=none, but that is within the 3%
	// layout noise: a tie, kept on the smaller align=none.
	if d.Kind != Tie || !d.LayoutNoise || d.Winner != "isa=avx512vl/unroll=2/align=none" {
		t.Fatalf("decision %+v, want a layout-noise tie kept on align=none", d)
	}
	if !strings.Contains(d.Note, "within layout noise 3.0%") {
		t.Errorf("note %q does not mention the layout noise", d.Note)
	}
	for _, row := range g.Rows {
		if row.Variant == "isa=avx512vl/unroll=2/align=64" && !row.LayoutNoise {
			t.Errorf("%s is 2%% from the winner but not marked within layout noise", row.Variant)
		}
		if row.Variant == "isa=avx2/unroll=1/align=none" && row.LayoutNoise {
			t.Errorf("%s is far from the winner but marked within layout noise", row.Variant)
		}
	}
}

func TestWinMustHoldAcrossOffsets(t *testing.T) {
	// align=64 wins by 2%, but its own sweep shows an offset 5% slower
	// than the runner-up: no win, both through the family's layout noise
	// and, with the noise ignored, through the direct offset check.
	samples := map[string][]float64{
		"isa=avx512vl/unroll=2/align=64":   spread(100, 10, 0.001),
		"isa=avx512vl/unroll=2/align=none": spread(102, 10, 0.001),
		"isa=avx512vl/unroll=2/align=64+8": spread(107, 10, 0.001),
	}
	g := synth("test.fixed", 0, samples)
	if g.Decision.Kind == Significant || g.Noise < 0.06 {
		t.Errorf("decision %+v (noise %.3f): a win that does not hold at offset 64+8 was accepted", g.Decision, g.Noise)
	}
	g.Noise = 0
	if d := decide(g, DefaultOptions(), MinSamples()); d.Kind != Tie || !d.LayoutNoise {
		t.Errorf("without noise: decision %+v, want a tie from the offset check", d)
	}
}
