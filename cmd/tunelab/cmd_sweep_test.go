package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/harness"
)

// tunelabProc starts this test binary as tunelab with args.
func tunelabProc(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), testRunEnv+"="+strings.Join(args, "\t")), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &out
}

func exitStatus(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// countResults counts result lines per benchmark name in a result file
// (read with benchfmt, as benchstat reads it).
func countResults(t *testing.T, path string) (map[string]int, string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(bytes.NewReader(data), path)
	n := map[string]int{}
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.Result:
			n[rec.Name.String()]++
		case *benchfmt.SyntaxError:
			t.Errorf("%s: %v", path, rec)
		}
	}
	return n, string(data)
}

// TestSweepInterruptAndResume sends SIGINT to a running sweep, checks it
// exits 130 with a readable file, then resumes it to the end.
func TestSweepInterruptAndResume(t *testing.T) {
	needCalibAsm(t)
	path := filepath.Join(t.TempDir(), "r.txt")
	args := []string{"sweep", "--kernel", "calib", "--min-samples", "12", "--max-samples", "12", "--sample-time", "500us", "--seed", "5"}
	cmd, out := tunelabProc(t, nil, append(args, "-o", path)...)
	deadline := time.Now().Add(20 * time.Second)
	for {
		data, _ := os.ReadFile(path)
		if bytes.Count(data, []byte("\nBenchmarkCalib/")) >= 5 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("sweep wrote no results in 20 s:\n%s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGINT)
	if code := exitStatus(cmd.Wait()); code != 130 {
		t.Fatalf("interrupted sweep exited %d, want 130:\n%s", code, out)
	}
	if !strings.Contains(out.String(), "continue with: tunelab sweep --kernel calib --max-samples 12 --min-samples 12 --sample-time '500µs' --seed 5 --resume "+path) {
		t.Errorf("interrupted sweep does not say how to resume the same sweep:\n%s", out)
	}
	before, text := countResults(t, path)
	if strings.Contains(text, "# tunelab: done calib") {
		t.Fatalf("interrupted sweep marked calib done")
	}
	cmd, out = tunelabProc(t, nil, append(args, "--resume", path)...)
	if code := exitStatus(cmd.Wait()); code != 0 {
		t.Fatalf("resumed sweep exited %d:\n%s", code, out)
	}
	after, text := countResults(t, path)
	if !strings.Contains(text, "# tunelab: done calib") || len(after) != calibContenders {
		t.Fatalf("resumed file: done mark %v, %d variants (want %d):\n%s", strings.Contains(text, "done calib"), len(after), calibContenders, out)
	}
	for name, n := range after {
		if n != 12 {
			t.Errorf("%s: %d samples after resume (%d before), want exactly 12", name, n, before[name])
		}
	}
}

// calibContenders is the number of calib variants a default sweep of the
// kernel races: generic, eps=0/1/2/5 and the three copies of eps=0 at
// other addresses (the loop-offset copies are offset-sweep variants).
const calibContenders = 8

func TestSweepUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"sweep", "--cpu", "4096"},
		{"sweep", "--kernel", "no.such.kernel"},
		{"sweep", "--variant", "["},
		{"sweep", "--size", "x"},
		{"sweep", "--sample-time", "1ns"},
		{"sweep", "stray"},
		{"sweep", "--resume", "a", "-o", "b"},
	} {
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("tunelab %q: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

func TestSweepCalib(t *testing.T) {
	needCalibAsm(t)
	path := filepath.Join(t.TempDir(), "sub", "r.txt")
	stdout, stderr, code := runCLI(t, "sweep", "--kernel", "calib", "--max-samples", "12", "--sample-time", "500us", "-o", path)
	if code != 0 {
		t.Fatalf("sweep exit %d:\n%s\n%s", code, stdout, stderr)
	}
	for _, want := range []string{fmt.Sprintf("calib: %d contenders", calibContenders), "winner ", "baseline   isa=generic", "racing saved", "results: " + path, "core clock (est."} {
		if !strings.Contains(stdout, want) {
			t.Errorf("sweep summary lacks %q:\n%s", want, stdout)
		}
	}
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), " est-core-cycles/op") {
		t.Errorf("result file has no est-core-cycles/op values")
	}
	n, _ := countResults(t, path)
	if len(n) != calibContenders {
		t.Errorf("result file has %d benchmarks, want the %d calib variants: %v", len(n), calibContenders, n)
	}
	if _, _, code := runCLI(t, "sweep", "--kernel", "calib", "-o", path); code != 1 {
		t.Errorf("sweep onto an existing file: exit %d, want 1", code)
	}
}

func TestProgressBar(t *testing.T) {
	var b strings.Builder
	progressBar(&b)(harness.Progress{Group: "calib", Label: "isa=generic", GroupIndex: 1, Groups: 4, Samples: 7, LiveArms: 3,
		Elapsed: 3 * time.Second, BudgetLeft: time.Minute})
	for _, want := range []string{"[=====", "2/4 calib isa=generic n=7 live=3", "budget left 1m0s"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("progress line %q lacks %q", b.String(), want)
		}
	}
	if isTerminal(&b) {
		t.Error("a strings.Builder is not a terminal")
	}
}

func TestDefaultSelectionLeavesOutCalib(t *testing.T) {
	for _, withCalib := range []bool{false, true} {
		sel, err := selection("", "", "", withCalib)
		if err != nil {
			t.Fatal(err)
		}
		has := false
		for _, k := range sel.Kernels {
			has = has || k == calibKernel
		}
		if has != withCalib || len(sel.Kernels) < 1 {
			t.Errorf("selection(withCalib=%v) = %v: calib included %v", withCalib, sel.Kernels, has)
		}
	}
	sel, _ := selection("calib", "", "", false)
	if len(sel.Kernels) != 1 || sel.Kernels[0] != calibKernel {
		t.Errorf("--kernel calib selects %v", sel.Kernels)
	}
}

// TestSweepFailuresFirst sweeps a kernel with a variant that fails
// verification: the failure is listed before any verdict, the sweep exits
// 1, and the result file is still complete.
func TestSweepFailuresFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.txt")
	cmd, out := tunelabProc(t, []string{testBadKernelEnv + "=1"}, "sweep", "--kernel", "clitest.bad",
		"--max-samples", "8", "--sample-time", "200us", "-o", path)
	if code := exitStatus(cmd.Wait()); code != 1 {
		t.Fatalf("sweep with a failing variant exited %d, want 1:\n%s", code, out)
	}
	checkLinesInOrder(t, out.String(), []string{
		"FAILED: 1 variant failed verification or crashed",
		"  clitest.bad  mode=wrong: ",
		"clitest.bad: 2 contenders, 0 eliminated, 1 excluded",
		"results: " + path,
		"tunelab: sweep: 1 variant failed verification or crashed",
	})
	if !strings.Contains(out.String(), "index 3") {
		t.Errorf("the failure line does not give the first mismatch:\n%s", out)
	}
	if _, text := countResults(t, path); !strings.Contains(text, "excluded clitest.bad mode=wrong") {
		t.Errorf("result file does not record the exclusion:\n%s", text)
	}
}
