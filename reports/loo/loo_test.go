package loo

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// looFiles are the leave-one-out fixtures (testdata/loo, see genloo.go
// there): a Zen 4 on bare metal, the same model in a VM that hides
// AVX-512, a Zen 4 of another model number (same features) that measured
// isa=bmi2 too (which wins at 64 bytes there; no other host measured it)
// but not test.fixed, and a Sapphire Rapids.
// zen4Key is the dispatch key of the fixtures' Zen 4 (metal and VM).
const zen4Key = "AuthenticAMD/0x19/0x11"

var looFiles = []string{"zen4-metal.txt", "zen4-vm.txt", "zen4-raphael.txt", "spr.txt"}

// looReport reads the leave-one-out fixtures.
func looReport(t *testing.T) *reports.Report {
	t.Helper()
	saved := packageDefaults
	packageDefaults = func() map[string]string { return nil }
	t.Cleanup(func() { packageDefaults = saved })
	var paths []string
	for _, f := range looFiles {
		paths = append(paths, fixtures.Path(filepath.Join("loo", f)))
	}
	set, warnings, err := reports.Read(paths)
	if err != nil || len(warnings) > 0 {
		t.Fatalf("reading the fixtures: %v, warnings %q", err, warnings)
	}
	return reports.Analyze(set, reports.DefaultOptions())
}

// TestLeaveOneOutPicks checks the picks behind the golden output: what
// each rule picks for the fleet's Zen 4 on bare metal, which the Raphael
// (same vendor and family) is nearest to, and that a pick the model never
// measured counts as unmeasured, not as zero regret.
func TestLeaveOneOutPicks(t *testing.T) {
	r := looReport(t)
	picks := func(rule string) map[string]*Pick {
		rl, _ := LookupRule(rule)
		out := map[string]*Pick{}
		for _, lm := range LeaveOneOut(r, rl).Models {
			if lm.Model.Key == zen4Key && lm.Model.Level == "x86-64-v4" {
				for _, p := range lm.Picks {
					out[kernelSize(p.Kernel, p.Size)] = p
				}
			}
		}
		return out
	}
	near, level := picks("nearest"), picks("level")
	if p := near["test.sized 64"]; p == nil || p.Pick != "isa=bmi2" || p.Measured || p.Reason != "nearest" ||
		p.Detail != "nearest AuthenticAMD/0x19/0x61 (Zen 4)" || p.RegretCell() != "unmeasured" {
		t.Errorf("nearest pick at 64: %+v, want the Raphael's isa=bmi2, unmeasured", p)
	}
	if p := near["test.sized 4096"]; p == nil || p.Pick != "isa=avx512vl" || p.Pick != p.Winner || p.Regret.Pct != 0 {
		t.Errorf("nearest pick at 4096: %+v, want the winner isa=avx512vl", p)
	}
	if p := level["test.sized 64"]; p == nil || p.Reason != "default" || !p.Measured {
		t.Errorf("level pick at 64: %+v, want a measured default", p)
	}
	// The fixed kernel: the Raphael did not measure it, so the nearest
	// entry is Sapphire Rapids'.
	if p := near["test.fixed"]; p == nil || p.Pick != "isa=avx2/unroll=2/align=64" || !p.Measured ||
		math.Abs(p.Regret.Pct-(176.4/137.2-1)) > 0.01 {
		t.Errorf("nearest pick of test.fixed: %+v, want SPR's avx2/unroll=2 at about +28.6%%", p)
	}
}

// TestLeaveOneOutSkipsPackageDefaults checks that a kernel whose package
// runs its own default on CPUs the table does not name is not scored
// where the pick is not an entry of the CPU's own model.
func TestLeaveOneOutSkipsPackageDefaults(t *testing.T) {
	r := looReport(t)
	packageDefaults = func() map[string]string { return map[string]string{"test.fixed": "its own"} }
	l := LeaveOneOut(r, Rules[0])
	for _, lm := range l.Models {
		for _, p := range lm.Picks {
			if p.Kernel == "test.fixed" && (p.Skipped != "package default: its own" || p.RegretCell() != "not scored: package default: its own") {
				t.Errorf("%s: pick %+v not skipped", lm.Model.Label(), p)
			}
		}
	}
	if n := l.Summary.Picks; n != 8 {
		t.Errorf("%d picks scored, want 8 (test.sized at two sizes on four models)", n)
	}
}
