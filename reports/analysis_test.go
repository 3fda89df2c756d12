package reports

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func classesOf(t *testing.T, r *Report, model, kernel string) []Class {
	t.Helper()
	for _, sc := range r.Classes {
		if sc.Model.Label() == model && sc.Kernel == kernel {
			return sc.Classes
		}
	}
	t.Fatalf("no size classes for %s on %s", kernel, model)
	return nil
}

func TestSizeClasses(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	cases := []struct {
		model string
		want  []Class
	}{
		// Size 4096 has no winner on Zen 4 (too few samples) and is
		// covered by the last class.
		{"Zen 4", []Class{
			{MinSize: 64, MaxSize: 64, Variant: "isa=scalar", Sizes: []int{64}},
			{MinSize: 256, MaxSize: 256, Variant: "isa=avx2", Sizes: []int{256}},
			{MinSize: 1024, MaxSize: 0, Variant: "isa=avx512vl", Sizes: []int{1024}},
		}},
		{"Sapphire Rapids", []Class{
			{MinSize: 64, MaxSize: 1024, Variant: "isa=avx2", Sizes: []int{64, 256, 1024}},
			{MinSize: 4096, MaxSize: 0, Variant: "isa=avx512vl", Sizes: []int{4096}},
		}},
	}
	for _, c := range cases {
		if got := classesOf(t, r, c.model, "test.sized"); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s test.sized classes:\n got %+v\nwant %+v", c.model, got, c.want)
		}
	}
	if got := ClassRanges(classesOf(t, r, "Zen 4", "test.sized")); got != "≤64 B: isa=scalar; 65–256 B: isa=avx2; >256 B: isa=avx512vl" {
		t.Errorf("Zen 4 breakpoints %q", got)
	}
	if got := classesOf(t, r, "Zen 4", "test.fixed"); len(got) != 1 || got[0].MaxSize != 0 {
		t.Errorf("fixed-size kernel classes %+v, want one unbounded class", got)
	}
}

func TestMergeChoices(t *testing.T) {
	got := MergeChoices([]int{16, 32, 64, 128, 256}, []string{"a", "a", "", "a", "b"})
	want := []Class{{16, 128, "a", []int{16, 32, 128}}, {256, 0, "b", []int{256}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("mergeChoices: got %+v, want %+v", got, want)
	}
	if got := MergeChoices([]int{16}, []string{""}); len(got) != 0 {
		t.Errorf("mergeChoices with no winner: got %+v, want none", got)
	}
}

func effect(r *Report, model, knob, from, to string) *KnobEffect {
	for _, e := range r.Effects {
		if e.Model.Label() == model && e.Knob == knob && e.From == from && e.To == to {
			return e
		}
	}
	return nil
}

func TestKnobEffects(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	e := effect(r, "Zen 4", "align", "none", "64")
	if e == nil {
		t.Fatal("no align=64 vs none effect on Zen 4")
	}
	// Fixture: every align=64 variant is 2% faster than its align=none twin.
	if e.Pairs != 4 || math.Abs(e.Pct+0.02) > 0.002 || e.PM > 0.005 || !e.Significant() {
		t.Errorf("align effect %v: want -2.0%% ±<0.5%% across 4 pairs", e)
	}
	if !strings.HasPrefix(e.String(), "align=64 vs none: -2.0% ±") || !strings.HasSuffix(e.String(), " on Zen 4 across 4 pairs") {
		t.Errorf("String() = %q", e.String())
	}
	u := effect(r, "Sapphire Rapids", "unroll", "1", "2")
	if u == nil || u.Pairs != 4 || u.Significant() {
		t.Errorf("SPR unroll effect %v: want 4 pairs, not significant (mixed signs in the fixture)", u)
	}
	for _, e := range r.Effects {
		if e.Knob == "align" && (strings.HasPrefix(e.To, "64+") || strings.HasPrefix(e.From, "64+")) {
			t.Errorf("offset-sweep member in knob effects: %v", e)
		}
	}
}

func TestMatrixFlags(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	var mk *MatrixKernel
	for _, m := range r.Matrix {
		if m.Kernel == "test.fixed" {
			mk = m
		}
	}
	if mk == nil || len(mk.Models) != 2 {
		t.Fatalf("no two-model matrix for test.fixed: %+v", mk)
	}
	want := []string{
		"test.fixed isa=avx2/unroll=2/align=64: wins on Sapphire Rapids, loses on Zen 4",
		"test.fixed isa=avx512vl/unroll=2/align=64: wins on Zen 4, loses on Sapphire Rapids",
	}
	for _, w := range want {
		found := false
		for _, f := range mk.Flags {
			found = found || strings.HasPrefix(f, w)
		}
		if !found {
			t.Errorf("missing flag %q in %q", w, mk.Flags)
		}
	}
	for vi, v := range mk.Variants {
		c := mk.Cells[vi][0]
		if v == "isa=avx512vl/unroll=2/align=64" && (c.Rank != 2 || !c.Wins || c.Loses()) {
			t.Errorf("%s on %s: %+v, want rank 2 (after ext=ref), wins, not losing", v, mk.Models[0].Label(), c)
		}
	}
	for _, f := range mk.Flags {
		if strings.Contains(f, "ext=ref") || strings.Contains(f, "isa=generic:") {
			t.Errorf("unexpected flag %q", f)
		}
	}
}

// TestTwoMachinesByRewrite fabricates a second CPU model by rewriting the
// identity lines of one file and checks that both are reported with the
// same winners.
func TestTwoMachinesByRewrite(t *testing.T) {
	data, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	for old, repl := range map[string]string{
		"cpu-vendor: AuthenticAMD":             "cpu-vendor: GenuineIntel",
		"cpu-family: 0x19":                     "cpu-family: 0x6",
		"cpu-model: 0x11":                      "cpu-model: 0xcf",
		"uarch: Zen 4":                         "uarch: Emerald Rapids",
		"dispatch-key: AuthenticAMD/0x19/0x11": "dispatch-key: GenuineIntel/0x06/0xcf",
		"run-id: a1b2c3d4":                     "run-id: 99999999",
	} {
		s = strings.Replace(s, old, repl, 1)
	}
	path := filepath.Join(t.TempDir(), "emr.txt")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	set, _, err := Read([]string{fixture("zen4.txt"), path})
	if err != nil {
		t.Fatal(err)
	}
	r := Analyze(set, DefaultOptions())
	if len(set.Models) != 2 {
		t.Fatalf("got %d models, want 2", len(set.Models))
	}
	for _, kernel := range []string{"test.fixed", "test.sized"} {
		a, b := classesOf(t, r, "Zen 4", kernel), classesOf(t, r, "Emerald Rapids", kernel)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s: classes differ between identical measurements: %+v vs %+v", kernel, a, b)
		}
	}
}
