package main

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/lab/mca"
)

func TestMCAUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"mca", "--kernel", "no.such.kernel"},
		{"mca", "extra-arg"},
		{"mca", "--bogus-flag"},
	} {
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("tunelab %v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

func TestMCACalibChainPredictsOneCyclePerInstruction(t *testing.T) {
	needCalibAsm(t)
	if _, err := mca.Find(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath(mca.ObjdumpPath); err != nil {
		t.Skip("GNU objdump not installed")
	}
	out, stderr, code := runCLI(t, "mca", "--kernel", "calib", "--variant", "eps=0", "--mcpu", "znver4", "--json")
	if code != 0 {
		t.Fatalf("tunelab mca --kernel calib --variant eps=0: exit %d: %s", code, stderr)
	}
	var rep mca.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json output does not parse: %v\n%s", err, out)
	}
	for _, r := range rep.Results {
		p := r.For("znver4")
		if p == nil {
			t.Fatalf("%s: no znver4 prediction: %+v", r.Variant, r.Predictions)
		}
		// The calibration loop is a dependent chain of single-cycle adds.
		if ratio := p.CyclesPerIter / float64(p.Instructions); ratio < 0.9 || ratio > 1.1 {
			t.Errorf("%s: %.1f cycles for %d instructions per iteration, want about 1 per instruction",
				r.Variant, p.CyclesPerIter, p.Instructions)
		}
	}
	text, _, _ := runCLI(t, "mca", "--kernel", "calib", "--variant", "eps=0", "--mcpu", "znver4")
	if !strings.Contains(text, "calib on znver4") {
		t.Errorf("text output lacks the ranking header:\n%s", text)
	}
}

func TestMCAModelsAddsHostToDefault(t *testing.T) {
	def := strings.Join(mca.DefaultMCPUs, ",")
	for _, c := range []struct {
		list     string
		explicit bool
		host     string
		want     string
	}{
		{def, false, "haswell", def + ",haswell"},
		{def, false, "znver3", def},
		{def, false, "", def},
		{"znver4", true, "haswell", "znver4"},
	} {
		if got := strings.Join(mcaModels(c.list, c.explicit, c.host), ","); got != c.want {
			t.Errorf("mcaModels(%q, explicit %v, host %q) = %q, want %q", c.list, c.explicit, c.host, got, c.want)
		}
	}
}

func TestMCAWithoutLLVM19SaysSo(t *testing.T) {
	needCalibAsm(t)
	t.Setenv("PATH", t.TempDir())
	_, stderr, code := runCLI(t, "mca", "--kernel", "calib")
	if code != 1 || !strings.Contains(stderr, "mca: llvm-mca 19 or newer not found") || !strings.Contains(stderr, "apt-get install") {
		t.Errorf("mca with no llvm-mca on PATH: exit %d, stderr %q; want exit 1 saying llvm-mca 19+ is missing and how to install it", code, stderr)
	}
}
