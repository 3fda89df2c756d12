package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tunelab/tunelab/kernels/variant"
)

// testCrashKernelEnv makes this test binary register kernel clitest.crash,
// whose variants crash or hang in Verify; worker subprocesses inherit it.
const testCrashKernelEnv = "TUNELAB_TEST_CRASH_KERNEL"

// Package-level variables are initialized before any init function, so
// the kernel is registered before cmd_worker_test.go's init serves the
// worker protocol or runs tunelab.
var _ = registerCrashKernel()

// registerCrashKernel registers kernel clitest.crash when asked to: a
// generic and a sound variant around ones that fault with SIGSEGV or
// SIGILL or hang in Verify, and one needing a CPU feature no host has.
func registerCrashKernel() bool {
	if os.Getenv(testCrashKernelEnv) != "1" {
		return false
	}
	const k = "clitest.crash"
	variant.RegisterKernel(variant.Kernel{Name: k, Family: "clitest", Bench: "CLITestCrash", Unit: "op",
		UnitsPerOp: func(int) float64 { return 1 }, Doc: "verify crash-isolation test kernel"})
	newInst := func(int, uint64) variant.Instance { return nopInstance{} }
	v := func(name string, verify func(), features ...string) variant.Variant {
		return variant.Variant{Kernel: k, Name: name, Features: features, New: newInst,
			Verify: func(int, uint64) error { verify(); return nil }}
	}
	variant.Register(v(variant.GenericName, func() {}), v("mode=segv", segfault), v("mode=sigill", sigill),
		v("mode=hang", func() { time.Sleep(time.Hour) }), v("mode=needs", func() {}, "nosuchfeature"), v("mode=ok", func() {}))
	return true
}

// segfault writes to a page mapped without access, as a kernel reading
// past its buffer into a guard page would.
func segfault() {
	page, err := unix.Mmap(-1, 0, 4096, unix.PROT_NONE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		panic(err)
	}
	page[0] = 1
}

// sigill raises SIGILL, as an instruction the CPU lacks would.
func sigill() {
	syscall.Kill(syscall.Getpid(), syscall.SIGILL)
	time.Sleep(time.Second)
}

func TestVerifyCalib(t *testing.T) {
	needCalibAsm(t)
	out, stderr, code := runCLI(t, "verify", "--kernel", "calib")
	if code != 0 {
		t.Fatalf("verify --kernel calib: exit %d:\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "verify: 11 variants: 11 verified, 0 mismatched, 0 crashed, 0 skipped (11 variant/size pairs") ||
		strings.Count(out, "ok    calib ") != 11 {
		t.Errorf("verify output:\n%s", out)
	}
}

// TestVerifyMismatchExits1 runs verify in a subprocess that registers a
// kernel with a wrong variant.
func TestVerifyMismatchExits1(t *testing.T) {
	cmd, out := tunelabProc(t, []string{testBadKernelEnv + "=1"}, "verify", "--kernel", "clitest.bad")
	if code := exitStatus(cmd.Wait()); code != 1 {
		t.Fatalf("verify of a wrong variant: exit %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{"FAIL  clitest.bad mode=wrong", "random #1", "index 3", "ok    clitest.bad isa=generic",
		"verify: 2 variants: 1 verified, 1 mismatched, 0 crashed, 0 skipped", "tunelab: verify: 1 mismatched and 0 crashed of 2 variants"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
}

// TestVerifyIsolatesCrashes runs verify in a subprocess whose variants
// crash with SIGSEGV and SIGILL and hang: each is reported with its cause,
// the variants after them are still verified, the one needing a missing
// feature is skipped, and the exit status is 1.
func TestVerifyIsolatesCrashes(t *testing.T) {
	cmd, out := tunelabProc(t, []string{testCrashKernelEnv + "=1"}, "verify", "--kernel", "clitest.crash", "--timeout", "1s", "--jobs", "1")
	if code := exitStatus(cmd.Wait()); code != 1 {
		t.Fatalf("verify of crashing variants: exit %d, want 1:\n%s", code, out)
	}
	lines := []string{
		"ok    clitest.crash isa=generic",
		"CRASH clitest.crash mode=segv: worker crashed during verify-one: ",
		"CRASH clitest.crash mode=sigill: worker crashed during verify-one: ",
		"CRASH clitest.crash mode=hang: worker crashed during verify-one: hung: no answer within 1s",
		"skip  clitest.crash mode=needs: missing CPU feature nosuchfeature",
		"ok    clitest.crash mode=ok",
		"verify: 6 variants: 2 verified, 0 mismatched, 3 crashed, 1 skipped (5 variant/size pairs run in ",
		"tunelab: verify: 0 mismatched and 3 crashed of 6 variants",
	}
	checkLinesInOrder(t, out.String(), lines)
	for _, sig := range []string{"SIGSEGV", "SIGILL"} {
		if !strings.Contains(out.String(), sig) {
			t.Errorf("verify output does not name %s:\n%s", sig, out)
		}
	}
}

// checkLinesInOrder checks that out has lines starting with each prefix,
// in order.
func checkLinesInOrder(t *testing.T, out string, prefixes []string) {
	t.Helper()
	rest := strings.Split(out, "\n")
	for _, p := range prefixes {
		for len(rest) > 0 && !strings.HasPrefix(rest[0], p) {
			rest = rest[1:]
		}
		if len(rest) == 0 {
			t.Errorf("output lacks a line starting %q after the ones before:\n%s", p, out)
			return
		}
		rest = rest[1:]
	}
}

// TestVerifySkippedOnlyExits0 checks that variants the host cannot run are
// counted as skipped without failing the run.
func TestVerifySkippedOnlyExits0(t *testing.T) {
	cmd, out := tunelabProc(t, []string{testCrashKernelEnv + "=1"}, "verify", "--kernel", "clitest.crash", "--variant", "mode=[no]*")
	if code := exitStatus(cmd.Wait()); code != 0 {
		t.Fatalf("verify of a skipped and a sound variant: exit %d, want 0:\n%s", code, out)
	}
	checkLinesInOrder(t, out.String(), []string{"skip  clitest.crash mode=needs", "ok    clitest.crash mode=ok",
		"verify: 2 variants: 1 verified, 0 mismatched, 0 crashed, 1 skipped"})
}

// TestVerifyLean checks --lean end to end in a subprocess: each variant
// is checked on a fresh instance (its Check, not its Verify) at the
// kernel's lean sizes, and a mismatch there still exits 1.
func TestVerifyLean(t *testing.T) {
	cmd, out := tunelabProc(t, []string{testBadKernelEnv + "=1"}, "verify", "--lean", "--kernel", "clitest.bad")
	if code := exitStatus(cmd.Wait()); code != 1 {
		t.Fatalf("verify --lean of a wrong variant: exit %d, want 1:\n%s", code, out)
	}
	checkLinesInOrder(t, out.String(), []string{"ok    clitest.bad isa=generic",
		"FAIL  clitest.bad mode=wrong: mismatch on instance input at index 5",
		"verify: 2 variants: 1 verified, 1 mismatched, 0 crashed, 0 skipped (2 variant/size pairs run in "})
}

// TestVerifyMaxFailures checks that --max-failures stops handing out
// variants once that many failed, says how many were not run, and exits 1.
func TestVerifyMaxFailures(t *testing.T) {
	cmd, out := tunelabProc(t, []string{testCrashKernelEnv + "=1"}, "verify", "--kernel", "clitest.crash", "--jobs", "1",
		"--max-failures", "2")
	if code := exitStatus(cmd.Wait()); code != 1 {
		t.Fatalf("verify --max-failures 2: exit %d, want 1:\n%s", code, out)
	}
	checkLinesInOrder(t, out.String(), []string{"ok    clitest.crash isa=generic", "CRASH clitest.crash mode=segv", "CRASH clitest.crash mode=sigill",
		"verify: 3 variants: 1 verified, 0 mismatched, 2 crashed, 0 skipped",
		"tunelab: verify: stopped after 2 failures (--max-failures): 0 mismatched and 2 crashed, 3 of 6 variants not run"})
	if strings.Contains(out.String(), "mode=hang") {
		t.Errorf("verify went on to mode=hang after 2 failures:\n%s", out)
	}
}

func TestVerifyLeanCalib(t *testing.T) {
	needCalibAsm(t)
	out, stderr, code := runCLI(t, "verify", "--lean", "--kernel", "calib", "--variant", "isa=amd64/*")
	if code != 0 {
		t.Fatalf("verify --lean --kernel calib: exit %d:\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "verify: 7 variants: 7 verified, 0 mismatched, 0 crashed, 0 skipped (7 variant/size pairs") {
		t.Errorf("verify --lean output:\n%s", out)
	}
}

// TestLeanSizes checks the two sizes --lean picks: the smallest default
// and the largest up to leanMaxSize plus the smallest (when the kernel
// accepts it), so that main loops run and end in a tail.
func TestLeanSizes(t *testing.T) {
	blocks := func(n int) error {
		if n%16 != 0 {
			return fmt.Errorf("%d is not whole blocks", n)
		}
		return nil
	}
	for _, c := range []struct {
		k    variant.Kernel
		want []int
	}{
		{variant.Kernel{Name: "fixed"}, nil},
		{variant.Kernel{Name: "aes", Sizes: []int{16, 64, 256, 1024, 16384, 1 << 20}, SizeCheck: blocks}, []int{16, 1040}},
		{variant.Kernel{Name: "streams", Sizes: []int{4, 8, 16}}, []int{4, 20}},
		{variant.Kernel{Name: "only-defaults", Sizes: []int{16, 1000}, SizeCheck: func(n int) error {
			if n != 16 && n != 1000 {
				return fmt.Errorf("%d is not 16 or 1000", n)
			}
			return nil
		}}, []int{16, 1000}},
		{variant.Kernel{Name: "one", Sizes: []int{64}}, []int{64}},
		{variant.Kernel{Name: "large", Sizes: []int{4096, 65536}}, []int{4096}},
	} {
		if got := leanSizes(&c.k); !slices.Equal(got, c.want) {
			t.Errorf("leanSizes(%s with sizes %v) = %v, want %v", c.k.Name, c.k.Sizes, got, c.want)
		}
	}
}

func TestVerifyUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--lean", "--size", "16"},
		{"--max-failures", "-1"},
		{"--lean", "--kernel", "poly1305", "--variant", "ext=*"},
		{"--variant", "["},
		{"--kernel", "no.such"},
		{"--kernel", "calib", "--variant", "nosuchknob=1"},
		{"--jobs", "0"},
		{"--timeout", "0s"},
		{"extra"},
	} {
		if _, stderr, code := runCLI(t, append([]string{"verify"}, args...)...); code != 2 {
			t.Errorf("verify %q: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}
