package reports

import (
	"math"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
)

// summaryRows returns the summary rows of kernel on the model labelled
// model.
func summaryRows(r *Report, model, kernel string) []*SummaryRow {
	var out []*SummaryRow
	for _, row := range r.Summary() {
		if row.Model.Label() == model && row.Kernel == kernel {
			out = append(out, row)
		}
	}
	return out
}

func TestSummaryFixtures(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	fixed := summaryRows(r, "Zen 4", "test.fixed")
	if len(fixed) != 1 || fixed[0].Label != "fixed size" || fixed[0].Winner != "isa=avx512vl/unroll=2/align=64" {
		t.Fatalf("Zen 4 test.fixed summary %+v, want one fixed-size row won by isa=avx512vl/unroll=2/align=64", fixed)
	}
	s := fixed[0].Speedups
	if len(s) != 1 || s[0].Ref != "ext=ref" || s[0].Refs != 1 || math.Abs(s[0].Speed()-120/137.2) > 0.01 {
		t.Errorf("Zen 4 test.fixed speed-up %+v, want 0.87× against ext=ref (120 ns vs 137.2 ns)", s)
	}
	sized := summaryRows(r, "Zen 4", "test.sized")
	var labels []string
	for _, row := range sized {
		labels = append(labels, row.Label+": "+row.Short)
	}
	if got := strings.Join(labels, "; "); got != "≤64 B: isa=scalar; 65 B–256 B: isa=avx2; >256 B: isa=avx512vl" {
		t.Errorf("Zen 4 test.sized classes %q", got)
	}
	if s := sized[0].Speedups; len(s) != 1 || s[0].Refs != 0 || s[0].Ref != "isa=generic" || math.Abs(s[0].Speed()-2) > 0.02 {
		t.Errorf("Zen 4 test.sized ≤64 B speed-up %+v, want 2.0× against the generic code (148 ns vs 74 ns, no external reference)", s)
	}
	if got := summaryRows(r, "Sapphire Rapids", "test.sized")[0]; len(got.Speedups) != 3 || got.Label != "≤1 KiB" {
		t.Errorf("Sapphire Rapids test.sized first class %q with %d speed-ups, want ≤1 KiB with one per size 64, 256, 1024", got.Label, len(got.Speedups))
	}
}

// TestSummaryCompiledCheck resolves the summary against a table with a
// Zen 4 entry for test.sized (isa=scalar up to 64 B, then isa=avx2) and
// nothing for test.fixed.
func TestSummaryCompiledCheck(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	m := r.Set.Models[0]
	features, _ := cpu.CanonicalFeatures(m.Features)
	old := compiledTable
	defer func() { compiledTable = old }()
	compiledTable = func() dispatch.Table {
		return dispatch.Table{Entries: []dispatch.Entry{{Vendor: m.Vendor, Family: m.Family, Model: m.Model, Uarch: m.Uarch,
			Kernel: "test.sized", Features: features, Choices: []dispatch.Choice{{MaxSize: 64, Variant: "isa=scalar"}, {MaxSize: 0, Variant: "isa=avx2"}}}}}
	}
	want := map[string]string{
		"fixed size": "no: generic fallback (+629.",
		"≤64 B":      "yes (table)",
		"65 B–256 B": "yes (table)",
		">256 B":     "no: table selects isa=avx2 (+33.",
	}
	for _, row := range append(summaryRows(r, "Zen 4", "test.fixed"), summaryRows(r, "Zen 4", "test.sized")...) {
		got := row.Compiled.String()
		if !strings.HasPrefix(got, want[row.Label]) || want[row.Label] == "" {
			t.Errorf("%s %s: compiled table check %q, want %q…", row.Kernel, row.Label, got, want[row.Label])
		}
		if cls := r.CompiledClass(row.Compiled); (cls == "yes") != strings.HasPrefix(got, "yes") || strings.HasPrefix(got, "no") && cls != "no" {
			t.Errorf("%s %s: %q coloured %q", row.Kernel, row.Label, got, cls)
		}
	}
}

// syntheticGroup returns a group of variants with the given medians
// (ten samples each, ±0.1%) and its decision.
func syntheticGroup(medians map[string]float64) *Group {
	m := &Model{Key: "AuthenticAMD/0x19/0x11", Uarch: "Zen 4"}
	g := &Group{Model: m, Kernel: "synthetic"}
	for name, med := range medians {
		vals := make([]float64, 10)
		for i := range vals {
			vals[i] = med * (1 + 0.001*math.Sin(float64(i)))
		}
		g.Rows = append(g.Rows, &Row{Point: &Point{Model: m, Variant: name}, Variant: name, Stat: stats.Summarize(vals), info: (&Set{}).info("synthetic", name)})
	}
	sortRows(g)
	g.Decision = decide(g, DefaultOptions(), stats.MinSamples())
	markRows(g)
	return g
}

func sortRows(g *Group) {
	for i := range g.Rows {
		for j := i + 1; j < len(g.Rows); j++ {
			if g.Rows[j].Stat.Median < g.Rows[i].Stat.Median {
				g.Rows[i], g.Rows[j] = g.Rows[j], g.Rows[i]
			}
		}
	}
}

func TestShortName(t *testing.T) {
	g := syntheticGroup(map[string]float64{
		"isa=avx2/unroll=2/mode=x/align=64":   100,
		"isa=avx2/unroll=1/mode=x/align=64":   120,   // unroll matters
		"isa=avx2/unroll=2/mode=x/align=none": 100.1, // align does not
		"isa=generic":                         900,
	})
	if g.Decision.Winner != "isa=avx2/unroll=2/mode=x/align=64" {
		t.Fatalf("synthetic winner %q (%s)", g.Decision.Winner, g.Decision.Note)
	}
	// mode has no measured alternative: it decided nothing.
	if got := ShortName([]*Group{g}, g.Decision.Winner, DefaultOptions()); got != "isa=avx2/unroll=2" {
		t.Errorf("ShortName = %q, want isa=avx2/unroll=2", got)
	}
	if got := ShortName([]*Group{g}, "ext=circl", DefaultOptions()); got != "ext=circl" {
		t.Errorf("ShortName of an external reference = %q", got)
	}
}

func TestDiffLabel(t *testing.T) {
	w := "isa=vaes256/inflight=2/keys=mem/whiten=fold/tail=narrow/align=64"
	for name, want := range map[string]string{
		w: "=",
		"isa=vaes256/inflight=4/keys=regs/whiten=fold/tail=narrow/align=64": "inflight=4 keys=regs",
		"isa=aesni/inflight=2/keys=mem/align=64":                            "isa=aesni",
		"ext=stdctr":                                                        "ext=stdctr",
		"isa=generic":                                                       "isa=generic",
	} {
		if got := DiffLabel(name, w); got != want {
			t.Errorf("DiffLabel(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestSpeedupString(t *testing.T) {
	s := Speedup{Ref: "ext=circl", Refs: 2, Delta: stats.Delta{Pct: 0.34, PM: 0.03, P: 0.001}}
	if got := s.String(0.05); got != "1.34× [1.31–1.37]" {
		t.Errorf("String = %q", got)
	}
	if got := s.RefLabel(); got != "ext=circl (best of 2)" {
		t.Errorf("RefLabel = %q", got)
	}
	s.Delta.P = 0.4
	if got := s.String(0.05); !strings.HasSuffix(got, "(n.s.)") {
		t.Errorf("String of a non-significant speed-up = %q, want (n.s.)", got)
	}
}

// TestSummaryOperationHasNoTableEntry checks that a whole operation's row
// says its kernels' entries decide, never "generic fallback": operations
// get no table entries of their own.
func TestSummaryOperationHasNoTableEntry(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	plan := compiledPlanFor(r.Set.Models[0], "mlkem768.keygen", nil) // registered as an operation in export_ops_test.go
	c := plan.check(Class{Variant: "ways=4/ntt=avx2", Sizes: []int{0}}, nil, 0.05)
	if got := c.String(); !strings.Contains(got, "operation") || strings.Contains(got, "generic") {
		t.Errorf("operation row: compiled table check %q, want the operation note", got)
	}
	if cls := r.CompiledClass(c); cls != "" {
		t.Errorf("operation row coloured %q, want none", cls)
	}
}
