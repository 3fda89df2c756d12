package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/internal/binom"
)

// TestSelftestSmall runs a few real verdicts. Whether 3 A/A verdicts show
// a false positive is up to the host, so the test checks that the output,
// its final line and the exit status agree, whichever way it went.
func TestSelftestSmall(t *testing.T) {
	needCalibAsm(t)
	out, stderr, code := runCLI(t, "selftest", "--verdicts", "3", "--planted", "1", "--budget", "300ms", "--sample-time", "500us", "--seed", "9")
	for _, want := range []string{"A/A eps=0", "planted eps=1%", "planted eps=2%", "planted eps=5%", "time/verdict",
		"A/A false positives ", "/3 = ", "(target ≤ 5%)", "detection of planted eps=1% ", "(no target)",
		"detection of planted eps=2% ", "(target ≥ 95%)"} {
		if !strings.Contains(out, want) {
			t.Errorf("selftest output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr, "6 verdicts (A/A 3, planted 1 each), budget 300ms per verdict") {
		t.Errorf("selftest stderr does not state the plan:\n%s", stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	switch code {
	case 0:
		if !strings.HasPrefix(last, "selftest ok: 3 of 3 targets met") || strings.Contains(out, "MISSED") {
			t.Errorf("exit 0 but the output says otherwise:\n%s", out)
		}
	case 1:
		if !strings.HasPrefix(last, "selftest FAILED: ") || !strings.Contains(out, "MISSED") || !strings.Contains(stderr, "tunelab: selftest missed its targets: ") {
			t.Errorf("exit 1 without saying which target was missed:\n%s%s", out, stderr)
		}
	default:
		t.Fatalf("selftest: exit %d:\n%s%s", code, out, stderr)
	}
}

func TestSelftestUsage(t *testing.T) {
	for _, c := range [][]string{
		{"--verdicts", "0"}, {"--verdicts", "-3"}, {"--planted", "0"}, {"--verdicts", "many"}, {"--planted", "1.5"}, {"--budget", "-1s"},
	} {
		args := append([]string{"selftest"}, c...)
		wantUsage(t, args, strings.TrimLeft(c[0], "-"), c[1])
		_, stderr, _ := runCLI(t, args...)
		if n := strings.Count(strings.TrimSpace(stderr), "\n"); n > 0 {
			t.Errorf("tunelab %q: %d lines on stderr, want one: %q", args, n+1, stderr)
		}
	}
}

// TestSelftestDefaults checks the default plan against its claims: 300
// A/A verdicts, whose exact upper bound falls below 7.5% at a 3%
// false-positive rate (and from 0 positives at most), 100 per planted
// effect, and per-verdict budgets that keep the run within selftestTime.
func TestSelftestDefaults(t *testing.T) {
	needCalibAsm(t)
	f, err := parseSelftestFlags(&env{stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, cases, err := f.plan()
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, c := range cases {
		total += c.Verdicts
	}
	if aa := cases[0].Verdicts; aa != 300 || total != 600 {
		t.Errorf("default plan: %d A/A verdicts of %d, want 300 of 600", aa, total)
	}
	aa := cases[0].Verdicts
	if _, hi := binom.Interval95(aa*3/100, aa); hi >= 0.075 {
		t.Errorf("%d/%d A/A positives (3%%): upper bound %.1f%%, want below 7.5%%", aa*3/100, aa, 100*hi)
	}
	if spent := cfg.Budget * time.Duration(total); spent > selftestTime || cfg.Budget <= 0 {
		t.Errorf("default budget %v per verdict: %v for %d verdicts, want at most %v", cfg.Budget, spent, total, selftestTime)
	}
}

// TestSelftestTargets checks which cases have targets at the default 1%
// threshold: A/A at most 5%, planted effects of 2% and 5% at least 95%,
// the 1% effect at the threshold none.
func TestSelftestTargets(t *testing.T) {
	needCalibAsm(t)
	cases, err := selftestCases(10, 4, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"A/A eps=0": 0.05, "planted eps=1%": 0, "planted eps=2%": 0.95, "planted eps=5%": 0.95}
	if len(cases) != len(want) {
		t.Fatalf("%d cases, want %d", len(cases), len(want))
	}
	for _, c := range cases {
		if tg, ok := want[c.Name]; !ok || c.Target != tg {
			t.Errorf("case %s: target %v, want %v", c.Name, c.Target, tg)
		}
		if n := map[bool]int{true: 10, false: 4}[c.AA()]; c.Verdicts != n {
			t.Errorf("case %s: %d verdicts, want %d", c.Name, c.Verdicts, n)
		}
	}
}

// TestSelftestExit checks the exit status: 1 with one line naming the
// missed target (point estimate), 1 for an interrupted run, else nil.
func TestSelftestExit(t *testing.T) {
	aa := harness.SelftestCase{Name: "A/A eps=0", Verdicts: 30, Target: 0.05}
	pl := harness.SelftestCase{Name: "planted eps=2%", Eps: 2, Verdicts: 10, Target: 0.95}
	cases := []harness.SelftestCase{aa, pl}
	result := func(aaPos, plPos int) []*harness.SelftestResult {
		return []*harness.SelftestResult{{Case: aa, Verdicts: 30, Positives: aaPos}, {Case: pl, Verdicts: 10, Positives: plPos}}
	}
	ctx := context.Background()
	if err := selftestExit(ctx, result(1, 10), cases); err != nil {
		t.Errorf("1/30 A/A, 10/10 detected: %v, want success", err)
	}
	err := selftestExit(ctx, result(2, 10), cases)
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 1 || err.Error() != "selftest missed its targets: A/A false positives 6.7% > 5%" {
		t.Errorf("2/30 A/A: %v, want exit 1 naming the A/A rate", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	res := result(0, 0)
	res[1].Verdicts = 0
	if err := selftestExit(cancelled, res, cases); !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), "interrupted after 30 of 40 verdicts") {
		t.Errorf("interrupted run: %v, want exit 1 saying so", err)
	}
}
