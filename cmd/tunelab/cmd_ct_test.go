package main

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/lab/ct"
	"github.com/tunelab/tunelab/reports/export"
)

func TestCTStatic(t *testing.T) {
	out, stderr, code := runCLI(t, "ct")
	if code != 0 {
		t.Fatalf("ct: exit %d: %s%s", code, out, stderr)
	}
	for _, want := range []string{"kernels/keccak/keccak_amd64.s", "kernels/mldsa/mldsa_amd64.s", "total", "0 with findings", "fixtures: lab/ct/leaks/leaks_amd64.s",
		"declassified by the generators", "kernels/internal/polysample/sample_amd64.s: ", "gate: passed"} {
		if !strings.Contains(out, want) {
			t.Errorf("ct output lacks %q:\n%s", want, out)
		}
	}
	// The total row sums the files' rows.
	var sum, total int
	for _, l := range strings.Split(out, "\n") {
		f := strings.Fields(l)
		if len(f) == 6 && strings.HasSuffix(f[0], ".s") {
			sum += atoi(t, f[1])
		}
		if len(f) == 6 && f[0] == "total" {
			total = atoi(t, f[1])
		}
	}
	if sum == 0 || sum != total {
		t.Errorf("functions: files sum to %d, total says %d:\n%s", sum, total, out)
	}
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a count: %q", s)
		}
		n = 10*n + int(c-'0')
	}
	return n
}

// withLeakyStatus registers a status file whose variant cttest isa=leaky
// has a finding, and makes `tunelab ct` check a table naming it.
func withLeakyStatus(t *testing.T) {
	t.Helper()
	finding := []ct.Finding{{Kind: ct.Branch, Line: 7, Instr: "JNE done", Why: "flags ZF depend on the secret loaded at line 5"}}
	remove := ct.Register(&ct.File{Package: "example.com/cttest", Asm: "zz/cttest_amd64.s",
		Funcs:    []ct.Func{{Name: "leaky", Instrs: 9, Findings: finding}},
		Variants: []ct.Variant{{Kernel: "cttest", Name: "isa=leaky", Funcs: []int{0}}}})
	old := ctSource
	ctSource = func() dispatch.Table {
		tb := dispatch.Compiled()
		tb.Defaults = append(append([]dispatch.Default(nil), tb.Defaults...),
			dispatch.Default{Level: "x86-64-v3", Kernel: "cttest", Choices: []dispatch.Choice{{Variant: "isa=leaky"}}})
		return tb
	}
	t.Cleanup(func() { remove(); ctSource = old })
}

func TestCTStaticGateFails(t *testing.T) {
	withLeakyStatus(t)
	out, stderr, code := runCLI(t, "ct", "-v")
	if code != 1 {
		t.Fatalf("ct with a table naming a leaky variant: exit %d, want 1:\n%s%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "names cttest isa=leaky, which has 1 finding (branch)") {
		t.Errorf("stderr does not name the leaky variant: %s", stderr)
	}
	if !strings.Contains(out, "zz/cttest_amd64.s:7 leaky branch: JNE done") || !strings.Contains(out, "cttest isa=leaky") {
		t.Errorf("-v output does not list the finding with file, line and instruction:\n%s", out)
	}
}

func TestExportRefusesLeakyVariant(t *testing.T) {
	withLeakyStatus(t)
	table := &export.Table{Entries: []export.Entry{{Kernel: "cttest", Choices: []export.Choice{{Variant: "isa=leaky"}}}}}
	err := admitConstantTime(table)
	if err == nil || !strings.Contains(err.Error(), "cttest isa=leaky has constant-time findings") {
		t.Errorf("admitConstantTime: %v, want a refusal naming cttest isa=leaky", err)
	}
	table.Entries[0].Choices[0].Variant = "isa=generic"
	if err := admitConstantTime(table); err != nil {
		t.Errorf("admitConstantTime of Go code: %v", err)
	}
}

func TestCTUsage(t *testing.T) {
	for _, args := range [][]string{
		{"ct", "x"}, {"ct", "--dynamic", "--selftest"}, {"ct", "--kernel", "keccak.x4"},
		{"ct", "--dynamic", "--kernel", "nosuch"}, {"ct", "--n", "-1"}, {"ct", "--selftest", "--cpu", "-2"},
	} {
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("tunelab %q: exit %d, want 2 (%s)", args, code, stderr)
		}
	}
}

func TestCTSelftestRuns(t *testing.T) {
	needCalibAsm(t)
	if testing.Short() {
		t.Skip("starts worker subprocesses")
	}
	// Few measurements: the static columns are checked, the dynamic ones
	// only for being there (no timed assertion).
	out, stderr, code := runCLI(t, "ct", "--selftest", "--n", "2000", "--cpu", "-1")
	if code != 0 && code != 1 {
		t.Fatalf("ct --selftest: exit %d:\n%s%s", code, out, stderr)
	}
	for _, want := range []string{
		"table    lookupTable   16 address (address)",
		"compare  earlyExit     1 branch (branch)",
		"divide   secretDivide  8 latency (latency)",
		"control  ctCompare     none (none)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("ct --selftest output lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "  2000  "); n != 4 {
		t.Errorf("ct --selftest: %d fixtures report 2000 measurements, want 4:\n%s", n, out)
	}
}

func TestCTDynamicRuns(t *testing.T) {
	needCalibAsm(t)
	if testing.Short() {
		t.Skip("starts worker subprocesses")
	}
	out, stderr, code := runCLI(t, "ct", "--dynamic", "--kernel", "keccak.x4,mldsa44", "--n", "500", "--cpu", "-1")
	if code != 0 && code != 1 {
		t.Fatalf("ct --dynamic: exit %d:\n%s%s", code, out, stderr)
	}
	for _, want := range []string{"keccak.x4", "fixed vs random input", "mldsa44.keygen", "mldsa44.sign", "mldsa44.verify: not measured: public inputs only"} {
		if !strings.Contains(out, want) {
			t.Errorf("ct --dynamic output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(out, "  500  ") {
		t.Errorf("ct --dynamic: no target reports 500 measurements:\n%s", out)
	}
}
