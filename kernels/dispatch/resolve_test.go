package dispatch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
)

const kern = "test.k"

var testCands = []Candidate{
	{Name: genericName},
	{Name: "isa=avx2", Features: []string{"avx2"}},
	{Name: "isa=avx512", Features: []string{"avx512f", "avx512vl"}},
	{Name: "isa=ifma", Features: []string{"avx512ifma", "avx512vl"}},
	{Name: "isa=future", Features: []string{"avx10"}}, // unknown feature: never runnable
}

// planString renders choices as "max:variant:reason,...".
func planString(choices []Choice) string {
	var parts []string
	for _, c := range choices {
		parts = append(parts, fmt.Sprintf("%d:%s:%s", c.MaxSize, c.Variant, c.Reason))
	}
	return strings.Join(parts, ",")
}

func zen4Entry(choices ...Choice) Entry {
	return Entry{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: kern, Choices: choices}
}

func ch(max int, v string) Choice { return Choice{MaxSize: max, Variant: v} }

var (
	defV3 = Default{Level: cpu.LevelV3, Features: []string{"avx2"}, Kernel: kern, Choices: []Choice{ch(0, "isa=avx2")}}
	defV4 = Default{Level: cpu.LevelV4, Kernel: kern, Choices: []Choice{ch(0, "isa=avx512")}}
)

func TestResolve(t *testing.T) {
	haswellAsZen4 := func(t *testing.T) *cpu.CPU { return synth(t, cpu.VendorAMD, 0x19, 0x11, haswellAll) }
	masked := func(spec string) func(t *testing.T) *cpu.CPU {
		return func(t *testing.T) *cpu.CPU { c := zen4(t); c.Mask(spec); return c }
	}
	tests := []struct {
		name     string
		cpu      func(t *testing.T) *cpu.CPU
		table    Table
		override string
		want     string
		notes    int
		warnings int
	}{
		{"empty table", zen4, Table{}, "", "0:isa=generic:generic", 0, 0},
		{"table", zen4, Table{Entries: []Entry{zen4Entry(ch(256, "isa=avx2"), ch(0, "isa=avx512"))}}, "",
			"256:isa=avx2:table,0:isa=avx512:table", 0, 0},
		{"other model uses defaults", zen4, Table{
			Entries:  []Entry{{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x61, Kernel: kern, Choices: []Choice{ch(0, "isa=ifma")}}},
			Defaults: []Default{defV3, defV4}}, "", "0:isa=avx512:default", 0, 0},
		{"other kernel ignored", zen4, Table{Entries: []Entry{{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Kernel: "other", Choices: []Choice{ch(0, "isa=avx2")}}}}, "",
			"0:isa=generic:generic", 0, 0},
		{"unknown variant", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=nope"))}, Defaults: []Default{defV3}}, "",
			"0:isa=avx2:default", 1, 0},
		{"unknown feature never runnable", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=future"))}}, "",
			"0:isa=generic:generic", 1, 0},
		{"unrunnable variant", haswellAsZen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=ifma"))}, Defaults: []Default{defV4, defV3}}, "",
			"0:isa=avx2:default", 1, 0},
		{"masked variant", masked("avx512f=off"), Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx512"))}, Defaults: []Default{defV4, defV3}}, "",
			"0:isa=avx2:default", 1, 0},
		{"all masked", masked("all=off"), Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx2"))}, Defaults: []Default{defV4, defV3}}, "",
			"0:isa=generic:generic", 1, 0},
		{"unsorted classes sorted", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx512"), ch(256, "isa=avx2"))}}, "",
			"256:isa=avx2:table,0:isa=avx512:table", 1, 0},
		{"duplicate class first wins", zen4, Table{Entries: []Entry{zen4Entry(ch(256, "isa=avx2"), ch(256, genericName), ch(0, "isa=avx512"))}}, "",
			"256:isa=avx2:table,0:isa=avx512:table", 1, 0},
		{"two unbounded first wins", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx2"), ch(0, "isa=avx512"))}}, "",
			"0:isa=avx2:table", 1, 0},
		{"negative size skipped", zen4, Table{Entries: []Entry{zen4Entry(ch(-5, "isa=avx2"), ch(0, "isa=avx512"))}}, "",
			"0:isa=avx512:table", 1, 0},
		{"empty choices", zen4, Table{Entries: []Entry{zen4Entry()}, Defaults: []Default{defV3}}, "",
			"0:isa=avx2:default", 1, 0},
		{"no unbounded class falls through", zen4, Table{Entries: []Entry{zen4Entry(ch(256, "isa=avx2"))}, Defaults: []Default{defV4}}, "",
			"256:isa=avx2:table,0:isa=avx512:default", 0, 0},
		{"unbounded dropped falls through", haswellAsZen4, Table{Entries: []Entry{zen4Entry(ch(64, genericName), ch(0, "isa=ifma"))}, Defaults: []Default{defV3}}, "",
			"64:isa=generic:table,0:isa=avx2:default", 1, 0},
		{"bounded class dropped widens next", haswellAsZen4, Table{Entries: []Entry{zen4Entry(ch(64, "isa=ifma"), ch(0, "isa=avx2"))}}, "",
			"0:isa=avx2:table", 1, 0},
		{"lower tier classes above the upper tier only", zen4, Table{
			Entries:  []Entry{zen4Entry(ch(512, "isa=avx2"))},
			Defaults: []Default{{Kernel: kern, Choices: []Choice{ch(256, genericName), ch(1024, "isa=ifma"), ch(0, "isa=avx512")}}}}, "",
			"512:isa=avx2:table,1024:isa=ifma:default,0:isa=avx512:default", 0, 0},
		{"adjacent same variant merged", zen4, Table{Entries: []Entry{zen4Entry(ch(256, "isa=avx2"), ch(1024, "isa=avx2"), ch(0, "isa=avx512"))}}, "",
			"1024:isa=avx2:table,0:isa=avx512:table", 0, 0},
		{"duplicate entry first wins", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx2")), zen4Entry(ch(0, "isa=avx512"))}}, "",
			"0:isa=avx2:table", 1, 0},
		{"defaults highest level first", zen4, Table{Defaults: []Default{defV3, defV4}}, "", "0:isa=avx512:default", 0, 0},
		{"defaults above host level skipped", synth2(haswellAll), Table{Defaults: []Default{defV4, defV3}}, "", "0:isa=avx2:default", 0, 0},
		{"default needing absent features skipped", synth2(v2Features), Table{Defaults: []Default{defV3, {Kernel: kern, Features: []string{"avx2"}, Choices: []Choice{ch(0, "isa=avx2")}}}}, "",
			"0:isa=generic:generic", 0, 0},
		{"default with unknown level skipped", zen4, Table{Defaults: []Default{{Level: "x86-64-v9", Kernel: kern, Choices: []Choice{ch(0, "isa=avx2")}}}}, "",
			"0:isa=generic:generic", 1, 0},
		{"override", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx512"))}}, "isa=avx2", "0:isa=avx2:override", 0, 0},
		{"override generic", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx512"))}}, "generic", "0:isa=generic:override", 0, 0},
		{"override unknown ignored", zen4, Table{Entries: []Entry{zen4Entry(ch(0, "isa=avx512"))}}, "isa=nope", "0:isa=avx512:table", 0, 1},
		{"override unrunnable ignored", masked("avx512ifma=off"), Table{}, "isa=ifma", "0:isa=generic:generic", 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kp := Resolve(tt.cpu(t), tt.table, tt.override, kern, testCands)
			if got := planString(kp.Choices); got != tt.want {
				t.Errorf("plan %s, want %s (notes %q)", got, tt.want, kp.Notes)
			}
			if len(kp.Notes) != tt.notes || len(kp.Warnings) != tt.warnings {
				t.Errorf("%d notes %q and %d warnings %q, want %d and %d", len(kp.Notes), kp.Notes, len(kp.Warnings), kp.Warnings, tt.notes, tt.warnings)
			}
			checkPlan(t, tt.cpu(t), kp)
		})
	}
}

// synth2 returns a constructor of a synthetic Zen 4-keyed CPU.
func synth2(features []string) func(t *testing.T) *cpu.CPU {
	return func(t *testing.T) *cpu.CPU { return synth(t, cpu.VendorAMD, 0x19, 0x11, features) }
}

// checkPlan checks the invariants Plan promises on any input.
func checkPlan(t *testing.T, host *cpu.CPU, kp KernelPlan) {
	t.Helper()
	if len(kp.Choices) == 0 || len(kp.Details) != len(kp.Choices) {
		t.Fatalf("plan %q: %d choices, %d details", planString(kp.Choices), len(kp.Choices), len(kp.Details))
	}
	prev := 0
	for i, c := range kp.Choices {
		last := i == len(kp.Choices)-1
		if last != (c.MaxSize == 0) || (!last && c.MaxSize <= prev) {
			t.Errorf("plan %q: choice %d has bad bound %d", planString(kp.Choices), i, c.MaxSize)
		}
		prev = c.MaxSize
		if c.Variant != genericName && !host.Has(featuresOf(c.Variant)...) {
			t.Errorf("plan %q: choice %d (%s) not runnable on the CPU", planString(kp.Choices), i, c.Variant)
		}
		if c.Reason == "" {
			t.Errorf("plan %q: choice %d has no reason", planString(kp.Choices), i)
		}
	}
}

func featuresOf(v string) []string {
	for _, c := range testCands {
		if c.Name == v {
			return c.Features
		}
	}
	return []string{"not-a-candidate"}
}

// TestResolveRandomHostileTables checks the plan invariants on random
// tables full of unknown, unrunnable, unsorted and duplicate choices, and
// of entries of the CPU's and other models with legacy, foreign, unknown
// and repeated feature sets, under both rules.
func TestResolveRandomHostileTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{genericName, "isa=avx2", "isa=avx512", "isa=ifma", "isa=future", "isa=nope", ""}
	sizes := []int{-1, 0, 0, 16, 64, 256, 256, 4096}
	randChoices := func() []Choice {
		out := make([]Choice, rng.IntN(5))
		for i := range out {
			out[i] = ch(sizes[rng.IntN(len(sizes))], names[rng.IntN(len(names))])
		}
		return out
	}
	cpus := []*cpu.CPU{zen4(t), synth(t, cpu.VendorAMD, 0x19, 0x11, haswellAll), synth(t, cpu.VendorAMD, 0x19, 0x11, nil),
		synth(t, cpu.VendorAMD, 0x19, 0x11, zen4VMFeatures)}
	featureSets := [][]string{nil, zen4Canonical(), zen4VMFeatures, haswellAll, {"avx2", "avx10"}, {"avx2", "avx2"}, {}}
	models := []int{0x11, 0x11, 0x01, 0x61}
	for i := 0; i < 3000; i++ {
		host := cpus[rng.IntN(len(cpus))]
		var tab Table
		for range rng.IntN(6) {
			e := withFeatures(zen4Entry(randChoices()...), featureSets[rng.IntN(len(featureSets))])
			e.Model = models[rng.IntN(len(models))]
			tab.Entries = append(tab.Entries, e)
		}
		levelNames := []string{"", cpu.LevelV2, cpu.LevelV3, cpu.LevelV4, "bogus"}
		for range rng.IntN(3) {
			tab.Defaults = append(tab.Defaults, Default{Level: levelNames[rng.IntN(len(levelNames))], Kernel: kern, Choices: randChoices()})
		}
		kp := ResolveRule(host, tab, Rule(rng.IntN(2)), names[rng.IntN(len(names))], kern, testCands)
		checkPlan(t, host, kp)
		checkEntries(t, host, kp)
		checkNearest(t, kp)
		if t.Failed() {
			t.Fatalf("iteration %d: table %+v", i, tab)
		}
	}
}

func TestResolveWithoutGenericCandidate(t *testing.T) {
	kp := Resolve(zen4(t), Table{}, "", kern, testCands[1:2])
	if planString(kp.Choices) != "0:isa=generic:generic" || len(kp.Notes) != 1 {
		t.Errorf("plan %s notes %q, want generic fallback and one note", planString(kp.Choices), kp.Notes)
	}
}

func TestForSize(t *testing.T) {
	plan := []Choice{ch(64, "a"), ch(1024, "b"), ch(0, "c")}
	for n, want := range map[int]int{0: 0, 64: 0, 65: 1, 1024: 1, 1025: 2, 1 << 30: 2} {
		if got := ForSize(plan, n); got != want {
			t.Errorf("ForSize(%s, %d) = %d, want %d", planString(plan), n, got, want)
		}
	}
}

// zen4VMFeatures is a Zen 4 whose hypervisor hides AVX-512.
var zen4VMFeatures = maskedFeatures(zen4All, "avx512f=off")

func withFeatures(e Entry, features []string) Entry {
	e.Features = features
	return e
}

func without(features []string, drop string) []string {
	var out []string
	for _, f := range features {
		if f != drop {
			out = append(out, f)
		}
	}
	return out
}

// TestResolveFeatureSets checks which of a model's entries the resolver
// uses: exact feature set first, then the closest subset of the host's
// feature level, then legacy entries, never one needing a feature the
// (masked) host lacks nor one of a lower feature level.
func TestResolveFeatureSets(t *testing.T) {
	full := withFeatures(zen4Entry(ch(0, "isa=avx512")), zen4Canonical())
	vm := withFeatures(zen4Entry(ch(0, "isa=avx2")), zen4VMFeatures)
	noGFNI := withFeatures(zen4Entry(ch(0, "isa=ifma")), without(zen4Canonical(), "gfni"))
	legacy := zen4Entry(ch(256, "isa=avx2"), ch(0, "isa=avx512"))
	unknown := withFeatures(zen4Entry(ch(0, genericName)), []string{"avx2", "avx10"})
	noAVX512 := func(t *testing.T) *cpu.CPU { c := zen4(t); c.Mask("avx512f=off"); return c }
	tests := []struct {
		name    string
		cpu     func(t *testing.T) *cpu.CPU
		entries []Entry
		want    string // plan
		matches string // Match of each entry status, "-" for unusable, * marks the used one
		table   string // substring of KernelPlan.Table
		notes   int
	}{
		{"exact over another feature set", zen4, []Entry{vm, full}, "0:isa=avx512:table", "- exact*",
			"table AuthenticAMD/0x19/0x11 (Zen 4) [features exact]", 0},
		{"masked host matches the VM entry exactly", noAVX512, []Entry{full, vm}, "0:isa=avx2:table", "- exact*",
			"[features exact]", 0},
		{"entry needing masked features skipped", noAVX512, []Entry{full}, "0:isa=avx2:default", "-",
			"entry for this model skipped: measured with avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx512vbmi,avx512vbmi2,avx512ifma,avx512vnni,avx512bitalg,avx512vpopcntdq,avx512bf16, which this host lacks; using default x86-64-v3", 0},
		{"closest subset", zen4, []Entry{vm, noGFNI}, "0:isa=ifma:table", "- subset*",
			"[features subset]: measured without gfni, which this host has", 0},
		{"lower feature level left to the defaults", zen4, []Entry{vm}, "0:isa=avx512:default", "-",
			"entry for this model skipped: measured at x86-64-v3, below this host's x86-64-v4; using default x86-64-v4", 0},
		{"legacy below a subset", zen4, []Entry{legacy, noGFNI}, "0:isa=ifma:table", "legacy subset*", "[features subset]", 0},
		{"legacy below exact", zen4, []Entry{legacy, full}, "0:isa=avx512:table", "legacy exact*", "[features exact]", 0},
		{"legacy used choice by choice when nothing matches", noAVX512, []Entry{full, legacy}, "256:isa=avx2:table,0:isa=avx2:default", "- legacy*",
			"[features not recorded]: legacy entry", 1},
		{"duplicate feature set first wins", zen4, []Entry{full, withFeatures(zen4Entry(ch(0, "isa=avx2")), zen4Canonical())}, "0:isa=avx512:table",
			"exact* exact", "[features exact]", 1},
		{"unknown feature never matches", zen4, []Entry{unknown}, "0:isa=avx512:default", "-",
			"measured with avx10, which this host lacks; using default x86-64-v4", 0},
		{"used entry with no runnable choice", noAVX512, []Entry{withFeatures(zen4Entry(ch(0, "isa=avx512")), zen4VMFeatures)}, "0:isa=avx2:default", "exact*",
			"[features exact]; none of its choices runs here, using default x86-64-v3", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			host := tt.cpu(t)
			kp := Resolve(host, Table{Entries: tt.entries, Defaults: []Default{defV4, defV3}}, "", kern, testCands)
			if got := planString(kp.Choices); got != tt.want {
				t.Errorf("plan %s, want %s (entries %+v)", got, tt.want, kp.Entries)
			}
			if got := matchString(kp.Entries); got != tt.matches {
				t.Errorf("entry matches %q, want %q (entries %+v)", got, tt.matches, kp.Entries)
			}
			if !strings.Contains(kp.Table, tt.table) {
				t.Errorf("table summary %q, want it to contain %q", kp.Table, tt.table)
			}
			if len(kp.Notes) != tt.notes {
				t.Errorf("notes %q, want %d", kp.Notes, tt.notes)
			}
			checkPlan(t, host, kp)
			checkEntries(t, host, kp)
		})
	}
}

// matchString renders entry statuses as their matches, "-" for unusable
// and * after the used one.
func matchString(st []EntryStatus) string {
	var parts []string
	for _, s := range st {
		m := s.Match
		if m == "" {
			m = "-"
		}
		if s.Used {
			m += "*"
		}
		parts = append(parts, m)
	}
	return strings.Join(parts, " ")
}

// checkEntries checks that at most one entry is used, that it needs no
// feature the CPU lacks, and that every status is explained.
func checkEntries(t *testing.T, host *cpu.CPU, kp KernelPlan) {
	t.Helper()
	used := 0
	for i, s := range kp.Entries {
		if s.Why == "" {
			t.Errorf("entry status %d %+v has no explanation", i, s)
		}
		if !s.Used {
			continue
		}
		used++
		if !host.Has(s.Features...) || s.Match == "" {
			t.Errorf("used entry %d measured with %q needs features the CPU lacks (%q)", i, s.Features, host.Missing(s.Features...))
		}
	}
	if used > 1 || (used == 1) != strings.HasPrefix(kp.Table, "table ") {
		t.Errorf("%d used entries, table summary %q", used, kp.Table)
	}
	if len(kp.Entries) > 0 && kp.Table == "" {
		t.Errorf("%d entries for the model but no table summary", len(kp.Entries))
	}
}

// TestResolvePreferred checks the generator's declared defaults: where
// no table entry or default covers the kernel, the runnable preferred
// candidate with the most features runs, not the generic code; a table
// entry or default still decides the sizes it covers, and a CPU that
// runs no preferred candidate falls to the generic code.
func TestResolvePreferred(t *testing.T) {
	cands := []Candidate{{Name: genericName}, {Name: "isa=avx2", Features: []string{"avx2"}, Preferred: true},
		{Name: "isa=avx2/u2", Features: []string{"avx2"}},
		{Name: "isa=avx512", Features: []string{"avx512f", "avx512vl"}, Preferred: true},
		{Name: "isa=future", Features: []string{"avx10"}, Preferred: true}}
	v2 := func(t *testing.T) *cpu.CPU { return synth(t, cpu.VendorIntel, 6, 0x55, v2Features) }
	haswell := func(t *testing.T) *cpu.CPU { return synth(t, cpu.VendorIntel, 6, 0x3c, haswellAll) }
	tests := []struct {
		name  string
		cpu   func(t *testing.T) *cpu.CPU
		table Table
		want  string
	}{
		{"AVX-512 host, no table", zen4, Table{}, "0:isa=avx512:preferred"},
		{"AVX2 host, no table", haswell, Table{}, "0:isa=avx2:preferred"},
		{"x86-64-v2 host, no table", v2, Table{}, "0:isa=generic:generic"},
		{"table entry covers small sizes", zen4, Table{Entries: []Entry{zen4Entry(ch(256, "isa=avx2/u2"))}},
			"256:isa=avx2/u2:table,0:isa=avx512:preferred"},
		{"default decides", haswell, Table{Defaults: []Default{defV3}}, "0:isa=avx2:default"},
	}
	for _, tt := range tests {
		kp := Resolve(tt.cpu(t), tt.table, "", kern, cands)
		if got := planString(kp.Choices); got != tt.want {
			t.Errorf("%s: plan %s, want %s", tt.name, got, tt.want)
		}
	}
}
