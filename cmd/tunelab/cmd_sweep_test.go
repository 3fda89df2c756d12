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
	"github.com/tunelab/tunelab/kernels/dispatch"
)

// tunelabProc starts this test binary as tunelab with args, in this
// environment plus env. A TUNELAB_DISPATCH of the user's is left out (env
// may set one): it would change what the child selects and make it print
// a note per override before its own output.
func tunelabProc(t *testing.T, env []string, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	var inherited []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, dispatch.EnvDispatch+"=") {
			inherited = append(inherited, kv)
		}
	}
	cmd.Env = append(append(inherited, testRunEnv+"="+strings.Join(args, "\t")), env...)
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

// interruptSweep starts a calib sweep writing to path, sends sig once it
// wrote 5 results, and returns its exit status and output. The sweep
// holds after its first round until it is signalled (testHoldEnv): a
// calib sweep ends about 0.1 s after its first round, and a test process
// that does not get the CPU for that long would otherwise signal a
// finished sweep. Nor is there a deadline for the results, which a slow
// host would miss: a sweep that exits before writing them fails the
// test, one that hangs is go test's -timeout to end.
func interruptSweep(t *testing.T, path string, sig syscall.Signal, args []string) (int, string) {
	t.Helper()
	cmd, out := tunelabProc(t, []string{testHoldEnv + "=1"}, append(args, "-o", path)...)
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	for {
		data, _ := os.ReadFile(path)
		if bytes.Count(data, []byte("\nBenchmarkCalib/")) >= 5 {
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("sweep exited with status %d before writing 5 results:\n%s", exitStatus(err), out)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cmd.Process.Signal(sig)
	code := exitStatus(<-exited)
	return code, out.String()
}

// TestSweepInterruptAndResume stops a running sweep the way a terminal
// (SIGINT) and a scheduler (SIGTERM, as Kubernetes and Slurm send before
// SIGKILL) do, checks that it exits 128+signal with its summary, a resume
// hint and a readable file, then resumes it to the end without repeating
// the selection flags: the file recorded them (issue 28).
func TestSweepInterruptAndResume(t *testing.T) {
	needCalibAsm(t)
	measure := []string{"--min-samples", "12", "--max-samples", "12", "--sample-time", "500us", "--seed", "5"}
	args := append([]string{"sweep", "--kernel", "calib"}, measure...)
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		by   string
	}{{syscall.SIGINT, 130, "interrupted"}, {syscall.SIGTERM, 143, "stopped by SIGTERM"}} {
		path := filepath.Join(t.TempDir(), "r.txt")
		code, out := interruptSweep(t, path, c.sig, args)
		if code != c.code {
			t.Fatalf("%v: sweep exited %d, want %d:\n%s", c.sig, code, c.code, out)
		}
		for _, want := range []string{fmt.Sprintf("calib: %d contenders", calibContenders), "sweep " + c.by + "; continue with: tunelab sweep --kernel calib --max-samples 12 --min-samples 12 --sample-time '500µs' --seed 5 --resume " + path} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: sweep output lacks %q:\n%s", c.sig, want, out)
			}
		}
		before, text := countResults(t, path)
		if strings.Contains(text, "# tunelab: done calib") || !strings.Contains(text, "\nsweep-kernels: calib\n") {
			t.Fatalf("%v: interrupted sweep marked calib done, or recorded no selection:\n%s", c.sig, firstLines(text, 40))
		}
		cmd, rout := tunelabProc(t, nil, append(append([]string{"sweep"}, measure...), "--resume", path)...)
		if code := exitStatus(cmd.Wait()); code != 0 {
			t.Fatalf("%v: resumed sweep exited %d:\n%s", c.sig, code, rout)
		}
		checkFinished(t, path, before)
	}
}

// checkFinished checks that the calib sweep in path ran to the end: every
// variant has exactly 12 samples, and nothing but calib was swept.
func checkFinished(t *testing.T, path string, before map[string]int) {
	t.Helper()
	after, text := countResults(t, path)
	if !strings.Contains(text, "# tunelab: done calib") || len(after) != calibContenders {
		t.Fatalf("resumed file: done mark %v, %d benchmarks (want the %d calib variants)", strings.Contains(text, "done calib"), len(after), calibContenders)
	}
	for name, n := range after {
		if n != 12 {
			t.Errorf("%s: %d samples after resume (%d before), want exactly 12", name, n, before[name])
		}
	}
}

func firstLines(s string, n int) string {
	lines := strings.SplitN(s, "\n", n+1)
	return strings.Join(lines[:min(n, len(lines))], "\n")
}

// TestResumeRefusesAnotherSelection checks that --resume continues the
// selection its file recorded: flags that repeat it are accepted, flags
// that change it are a usage error naming the recorded one, and a file
// written before selections were recorded resumes with the flags given,
// as before.
func TestResumeRefusesAnotherSelection(t *testing.T) {
	needCalibAsm(t)
	measure := []string{"--min-samples", "12", "--max-samples", "12", "--sample-time", "500us", "--seed", "5"}
	path := filepath.Join(t.TempDir(), "r.txt")
	if code, out := interruptSweep(t, path, syscall.SIGTERM, append([]string{"sweep", "--kernel", "calib", "--budget", "1m"}, measure...)); code != 143 {
		t.Fatalf("sweep exited %d, want 143:\n%s", code, out)
	}
	data, _ := os.ReadFile(path)
	for _, other := range [][]string{{"--kernel", "poly1305"}, {"--budget", "10m"}, {"--variant", "isa=generic"}, {"--size", "64"}} {
		_, stderr, code := runCLI(t, append(append(append([]string{"sweep"}, other...), measure...), "--resume", path)...)
		if code != 2 || !strings.Contains(stderr, "the sweep in the file selected sweep-") || !strings.Contains(stderr, path+":") {
			t.Errorf("--resume with %q: exit %d, stderr %q; want exit 2 naming the recorded selection", other, code, stderr)
		}
		if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
			t.Fatalf("--resume with %q changed the file", other)
		}
	}
	before, _ := countResults(t, path)
	_, stderr, code := runCLI(t, append(append([]string{"sweep", "--kernel", "calib", "--budget", "1m0s"}, measure...), "--resume", path)...)
	if code != 0 {
		t.Fatalf("--resume repeating the selection: exit %d: %s", code, stderr)
	}
	checkFinished(t, path, before)

	old := filepath.Join(t.TempDir(), "old.txt")
	if code, out := interruptSweep(t, old, syscall.SIGINT, append([]string{"sweep", "--kernel", "calib"}, measure...)); code != 130 {
		t.Fatalf("sweep exited %d, want 130:\n%s", code, out)
	}
	data, _ = os.ReadFile(old)
	var kept []string
	for _, line := range strings.SplitAfter(string(data), "\n") {
		if !strings.HasPrefix(line, "sweep-") {
			kept = append(kept, line)
		}
	}
	os.WriteFile(old, []byte(strings.Join(kept, "")), 0o644)
	before, _ = countResults(t, old)
	if _, stderr, code := runCLI(t, append(append([]string{"sweep", "--kernel", "calib"}, measure...), "--resume", old)...); code != 0 {
		t.Fatalf("--resume of a file without a recorded selection: exit %d: %s", code, stderr)
	}
	checkFinished(t, old, before)
	if text, _ := os.ReadFile(old); bytes.Contains(text, []byte("sweep-kernels")) {
		t.Errorf("resuming a file without a recorded selection added one mid-run")
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
	checkReportOpensWithFailures(t, path)
}

// checkReportOpensWithFailures reports the sweep file at path in every
// format and checks that each opens with the failed variant, its first
// mismatch, above the summary.
func checkReportOpensWithFailures(t *testing.T, path string) {
	dir := t.TempDir()
	md, html := filepath.Join(dir, "r.md"), filepath.Join(dir, "r.html")
	cmd, out := tunelabProc(t, []string{testBadKernelEnv + "=1"}, "report", path, "--md", md, "--html", html)
	if code := exitStatus(cmd.Wait()); code != 0 {
		t.Fatalf("report of a sweep with a failure: exit %d:\n%s", code, out)
	}
	mdText, _ := os.ReadFile(md)
	htmlText, _ := os.ReadFile(html)
	for format, text := range map[string]string{"text": out.String(), "markdown": string(mdText), "html": string(htmlText)} {
		failed := strings.Index(text, "FAILED: 1 variant failed verification or crashed")
		summary := strings.Index(text, "clitest.bad")
		mismatch := strings.Index(text, "mismatch on random #1 at index 3: got 0x0, want 0x1")
		if strings.Contains(text, "unknown CPU") {
			t.Errorf("%s report does not name the CPU the variant failed on:\n%s", format, text)
		}
		if failed < 0 || mismatch < 0 || summary < failed {
			t.Errorf("%s report does not open with the failure (heading at %d, mismatch at %d, first mention of the kernel at %d):\n%s",
				format, failed, mismatch, summary, text)
		}
	}
}
