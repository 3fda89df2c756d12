package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/export"
)

// recorded is a real sweep's result file (Zen 3, AVX2, 2026-12-01:
// keccak.x4, poly1305 and aes128.dec at 64 B and 16 KiB, --budget 40s),
// with the race's eliminations in it.
const recorded = "testdata/recorded-zen3.txt"

// TestOneDecisionEverywhere checks on a recorded result file that the
// sweep's summary, the report, the exported table and dispatch's
// explanation name the same winner for every group, that the winner was
// not eliminated and is no external reference.
func TestOneDecisionEverywhere(t *testing.T) {
	if variant.Lookup("poly1305", "isa=avx2/radix=26/lanes=4/blocks=16/pow=mem/carry=ilv/tail=scalar/align=64") == nil {
		t.Skip("the recorded file's variants are not registered (purego build): export would refuse them")
	}
	set, _, err := reports.Read([]string{recorded})
	if err != nil {
		t.Fatal(err)
	}
	rep := reports.Analyze(set, reports.DefaultOptions())
	want := map[string]string{} // "kernel size" -> winner
	for _, g := range rep.Groups {
		w := g.Decision.Winner
		if w == "" {
			t.Fatalf("%s size %d: no winner in the recorded file: %s", g.Kernel, g.Size, g.Decision.Note)
		}
		for _, r := range g.Rows {
			if r.Variant == w && (r.External() || r.Point.Eliminated) {
				t.Errorf("%s size %d: winner %s is external or eliminated", g.Kernel, g.Size, w)
			}
		}
		want[fmt.Sprintf("%s %d", g.Kernel, g.Size)] = w
	}
	checkSweepSummary(t, want)
	checkReport(t, rep, want)
	checkExport(t, want)
	checkDispatchExplanation(t, want)
}

// checkSweepSummary checks the verdict lines the sweep prints.
func checkSweepSummary(t *testing.T, want map[string]string) {
	set, _, err := reports.Read([]string{recorded})
	verdicts := sweepVerdicts(set, err, reports.DefaultOptions())
	for key, w := range want {
		var kernel string
		var size int
		fmt.Sscan(key, &kernel, &size)
		k := variant.LookupKernel(kernel)
		if k == nil {
			t.Fatalf("kernel %s not registered", kernel)
		}
		lines := verdicts(&harness.GroupResult{Group: &harness.Group{Kernel: k, Size: size}})
		if len(lines) == 0 || !strings.HasPrefix(strings.Join(strings.Fields(lines[0]), " "), "winner "+w+" ") {
			t.Errorf("sweep summary of %s: %q, want winner %s", key, lines, w)
		}
	}
}

// checkReport checks the text report's decision line of every group.
func checkReport(t *testing.T, rep *reports.Report, want map[string]string) {
	out, stderr, code := runCLI(t, "report", recorded)
	if code != 0 {
		t.Fatalf("report: exit %d: %s", code, stderr)
	}
	for _, g := range rep.Groups {
		if !strings.Contains(out, "-> "+g.Decision.Note) {
			t.Errorf("report lacks the decision %q", g.Decision.Note)
		}
	}
	if !strings.Contains(out, reports.RuleVersion) {
		t.Errorf("report does not print the decision rule %s", reports.RuleVersion)
	}
}

// checkExport checks the exported choice at every measured size.
func checkExport(t *testing.T, want map[string]string) {
	out, stderr, code := runCLI(t, "export", "--format", "json", recorded)
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, stderr)
	}
	var tab export.Table
	if err := json.Unmarshal([]byte(out), &tab); err != nil {
		t.Fatal(err)
	}
	for key, w := range want {
		var kernel string
		var size int
		fmt.Sscan(key, &kernel, &size)
		if got := exportedAt(tab, kernel, size); got != w {
			t.Errorf("export of %s: %q, want %s", key, got, w)
		}
	}
}

func exportedAt(tab export.Table, kernel string, size int) string {
	for _, e := range tab.Entries {
		if e.Kernel != kernel {
			continue
		}
		for _, c := range e.Choices {
			if c.MaxSize == 0 || size <= c.MaxSize {
				return c.Variant
			}
		}
	}
	return ""
}

// checkDispatchExplanation runs `dispatch --results` on a CPU of the
// recorded model with the table exported from the file: every decision
// must agree with the plan.
func checkDispatchExplanation(t *testing.T, want map[string]string) {
	tab, _, err := export.ExportFiles([]string{recorded}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	cpu := syntheticCPU(t, "")
	cpu.Family, cpu.Model = 0x19, 0x01
	var table dispatch.Table
	var plans []dispatch.KernelPlan
	for _, e := range tab.Entries {
		de := dispatch.Entry{Vendor: e.CPU.Vendor, Family: e.CPU.Family, Model: e.CPU.Model, Uarch: e.Uarch, Kernel: e.Kernel}
		var cands []dispatch.Candidate
		for _, c := range e.Choices {
			de.Choices = append(de.Choices, dispatch.Choice{MaxSize: c.MaxSize, Variant: c.Variant})
			cands = append(cands, dispatch.Candidate{Name: c.Variant})
		}
		table.Entries = append(table.Entries, de)
		plans = append(plans, dispatch.Resolve(cpu, dispatch.Table{Entries: []dispatch.Entry{de}}, "", e.Kernel, cands))
	}
	withDispatch(t, dispatchState{cpu: cpu, table: table, plans: plans})
	out, stderr, code := runCLI(t, "dispatch", "--json", "--results", recorded)
	if code != 0 {
		t.Fatalf("dispatch --results: exit %d: %s", code, stderr)
	}
	var r dispatchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, k := range r.Kernels {
		for _, d := range k.Decisions {
			n++
			if w := want[fmt.Sprintf("%s %d", k.Kernel, d.Size)]; d.Winner != w || !d.Agrees {
				t.Errorf("dispatch --results %s size %d: winner %s (plan %s, agrees %v), want %s", k.Kernel, d.Size, d.Winner, d.Planned, d.Agrees, w)
			}
		}
	}
	if n != len(want) {
		t.Errorf("dispatch --results explained %d decisions, want %d", n, len(want))
	}
}

// TestOldRuleFileReads checks how a file of the previous rule
// (tunelab-winner/2, no round lines, no layout floor) is judged: it
// reads, the report names the rule its run recorded next to the one
// applied, and every comparison is unpaired (independent samples).
func TestOldRuleFileReads(t *testing.T) {
	out, stderr, code := runCLI(t, "report", recorded)
	if code != 0 {
		t.Fatalf("report %s: exit %d: %s", recorded, code, stderr)
	}
	first := strings.SplitN(out, "\n", 2)[0]
	if !strings.Contains(first, "decision rule: "+reports.RuleVersion) || !strings.Contains(first, "runs recorded tunelab-winner/2 ") {
		t.Errorf("rule line %q: want the applied rule and the one the run recorded", first)
	}
	if !strings.Contains(out, "(unpaired)") || strings.Contains(out, "(paired, ") {
		t.Errorf("report of a file without rounds: want unpaired comparisons only:\n%s", out)
	}
}
