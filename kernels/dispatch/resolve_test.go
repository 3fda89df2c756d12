package dispatch

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
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
	return Entry{Vendor: VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: kern, Choices: choices}
}

func ch(max int, v string) Choice { return Choice{MaxSize: max, Variant: v} }

var (
	defV3 = Default{Level: LevelV3, Features: []string{"avx2"}, Kernel: kern, Choices: []Choice{ch(0, "isa=avx2")}}
	defV4 = Default{Level: LevelV4, Kernel: kern, Choices: []Choice{ch(0, "isa=avx512")}}
)

func TestResolve(t *testing.T) {
	haswellAsZen4 := func(t *testing.T) *CPU { return synth(t, VendorAMD, 0x19, 0x11, haswellAll) }
	masked := func(spec string) func(t *testing.T) *CPU {
		return func(t *testing.T) *CPU { c := zen4(t); c.Mask(spec); return c }
	}
	tests := []struct {
		name     string
		cpu      func(t *testing.T) *CPU
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
			Entries:  []Entry{{Vendor: VendorAMD, Family: 0x19, Model: 0x61, Kernel: kern, Choices: []Choice{ch(0, "isa=ifma")}}},
			Defaults: []Default{defV3, defV4}}, "", "0:isa=avx512:default", 0, 0},
		{"other kernel ignored", zen4, Table{Entries: []Entry{{Vendor: VendorAMD, Family: 0x19, Model: 0x11, Kernel: "other", Choices: []Choice{ch(0, "isa=avx2")}}}}, "",
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
func synth2(features []string) func(t *testing.T) *CPU {
	return func(t *testing.T) *CPU { return synth(t, VendorAMD, 0x19, 0x11, features) }
}

// checkPlan checks the invariants Plan promises on any input.
func checkPlan(t *testing.T, cpu *CPU, kp KernelPlan) {
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
		if c.Variant != genericName && !cpu.Has(featuresOf(c.Variant)...) {
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
// tables full of unknown, unrunnable, unsorted and duplicate choices.
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
	cpus := []*CPU{zen4(t), synth(t, VendorAMD, 0x19, 0x11, haswellAll), synth(t, VendorAMD, 0x19, 0x11, nil)}
	for i := 0; i < 3000; i++ {
		cpu := cpus[rng.IntN(len(cpus))]
		var tab Table
		for range rng.IntN(3) {
			tab.Entries = append(tab.Entries, zen4Entry(randChoices()...))
		}
		levelNames := []string{"", LevelV2, LevelV3, LevelV4, "bogus"}
		for range rng.IntN(3) {
			tab.Defaults = append(tab.Defaults, Default{Level: levelNames[rng.IntN(len(levelNames))], Kernel: kern, Choices: randChoices()})
		}
		kp := Resolve(cpu, tab, names[rng.IntN(len(names))], kern, testCands)
		checkPlan(t, cpu, kp)
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
