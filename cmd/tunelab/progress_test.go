package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/reports"
)

func TestSkipLines(t *testing.T) {
	skips := []harness.Skip{
		{Kernel: "aes128.dec", Variant: "isa=vaes512/a", Reason: "missing CPU feature avx512f"},
		{Kernel: "aes128.dec", Variant: "isa=vaes512/b", Reason: "missing CPU feature avx512f"},
		{Kernel: "keccak.x4", Variant: "isa=avx512/a", Reason: "missing CPU feature avx512f"},
		{Kernel: "keccak.x4", Variant: "isa=avx512vl/b", Reason: "missing CPU feature avx512f,avx512vl"},
		{Kernel: "keccak.x4", Variant: "isa=odd", Reason: "not measurable: registered without New or Verify"},
	}
	want := []string{
		"aes128.dec: 2 variants need avx512f: skipped",
		"keccak.x4: 2 variants need one or more of avx512f, avx512vl: skipped",
		"keccak.x4: 1 variant: not measurable: registered without New or Verify",
	}
	if got := skipLines(skips); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("skipLines:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var quiet, verbose strings.Builder
	printSkips(&env{stdout: new(strings.Builder), stderr: &quiet}, skips, false)
	printSkips(&env{stdout: new(strings.Builder), stderr: &verbose}, skips, true)
	if n := strings.Count(quiet.String(), "\n"); n != 4 {
		t.Errorf("summarized skips take %d lines, want 3 and a total:\n%s", n, quiet.String())
	}
	if n := strings.Count(verbose.String(), "skipped "); n != len(skips) {
		t.Errorf("-v lists %d skipped variants, want %d:\n%s", n, len(skips), verbose.String())
	}
}

func TestTimeLeft(t *testing.T) {
	p := harness.Progress{Elapsed: time.Minute, Contenders: 400, ContendersDone: 100, BudgetLeft: 30 * time.Second}
	if left, ok := timeLeft(p); !ok || left != 3*time.Minute {
		t.Errorf("a quarter done in 1m: %v left (ok %v), want 3m from the rate", left, ok)
	}
	p.BudgetLeft = 5 * time.Minute
	if left, _ := timeLeft(p); left != 5*time.Minute {
		t.Errorf("with 5m of budget left: %v, want the budget (it is shared out to be used)", left)
	}
	if _, ok := timeLeft(harness.Progress{Contenders: 10}); ok {
		t.Error("nothing done and no budget left: want the time left unknown")
	}
}

func TestPlainProgress(t *testing.T) {
	var b strings.Builder
	f := plainProgress(&b, 10*time.Second)
	for _, el := range []time.Duration{0, 5 * time.Second, 11 * time.Second, 12 * time.Second} {
		f(harness.Progress{Group: "poly1305/size=64", GroupIndex: 2, Groups: 66, Elapsed: el, BudgetLeft: time.Minute})
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[1], "progress: group 3/66 poly1305/size=64, 11s elapsed, ~1m0s left") {
		t.Errorf("plain progress printed %q, want two lines 10 s apart", lines)
	}
	if strings.Contains(b.String(), "\r") || strings.Contains(b.String(), "\033") {
		t.Error("plain progress contains terminal control characters")
	}
}

func TestWriteWinnerTable(t *testing.T) {
	set, _, err := reports.Read([]string{fixtures + "zen4.txt"})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	writeWinnerTable(&b, reports.Analyze(set, reports.DefaultOptions()))
	for _, want := range []string{"test.sized/size=64    isa=scalar", "2.00× [", "vs isa=generic (no external reference)", "test.sized/size=4096  no winner", "vs ext=ref"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("winner table lacks %q:\n%s", want, b.String())
		}
	}
}

// TestSweepOutputFitsAScreen runs a small sweep with stderr not a
// terminal: plain progress lines (no control characters) and, after the
// per-group verdicts, the compact winner table.
func TestSweepOutputFitsAScreen(t *testing.T) {
	needCalibAsm(t)
	path := filepath.Join(t.TempDir(), "r.txt")
	stdout, stderr, code := runCLI(t, "sweep", "--kernel", "calib", "--max-samples", "12", "--sample-time", "500us", "-o", path)
	if code != 0 {
		t.Fatalf("sweep exit %d:\n%s\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "progress: group 1/1 calib, ") || strings.ContainsAny(stderr, "\r\033") {
		t.Errorf("stderr lacks a plain progress line, or has terminal controls:\n%q", stderr)
	}
	table := strings.Index(stdout, "winners (knobs that matter")
	if table < 0 || table < strings.Index(stdout, "calib: 5 contenders") || !strings.Contains(stdout[max(table, 0):], "\n  calib ") {
		t.Errorf("stdout lacks the winner table after the verdicts:\n%s", stdout)
	}
}
