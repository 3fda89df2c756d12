package harness

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
)

const verifyKernel = "harnesstest.verify"

// Package-level variables are initialized before any init function runs,
// so this registers the kernel before main_test.go's init serves the
// worker protocol in a worker subprocess.
var _ = registerVerifyKernel()

// registerVerifyKernel registers a kernel whose variants fail inside
// Verify: with SIGSEGV, SIGILL, a hang, a mismatch, or a SIGSEGV only at
// size 32; one needs a CPU feature no host has.
func registerVerifyKernel() bool {
	variant.RegisterKernel(variant.Kernel{Name: verifyKernel, Family: "harnesstest", Bench: "HarnessVerify",
		Sizes: []int{16, 32}, Unit: "B", UnitsPerOp: func(n int) float64 { return float64(n) }, Doc: "harness verify test kernel"})
	faulty := func(name string, verify func(size int) error) variant.Variant {
		v := sumVariant(verifyKernel, name, nil)
		v.Verify = func(size int, seed uint64) error { return verify(size) }
		return v
	}
	variant.Register(
		sumVariant(verifyKernel, variant.GenericName, nil),
		faulty("mode=segv", func(int) error { (&faultInstance{segv: true}).Run(1); return nil }),
		faulty("mode=sigill", func(int) error { (&faultInstance{}).Run(1); return nil }),
		faulty("mode=hang", func(int) error { (&faultInstance{hang: true}).Run(1); return nil }),
		faulty("mode=wrong", func(size int) error {
			return &variant.Mismatch{Kernel: verifyKernel, Variant: "mode=wrong", Input: "edge #1", Index: size, Got: "0x1", Want: "0x2"}
		}),
		faulty("mode=late", func(size int) error {
			if size == 32 {
				(&faultInstance{segv: true}).Run(1)
			}
			return nil
		}),
		sumVariant(verifyKernel, "mode=needs", []string{"nosuchfeature"}),
		sumVariant(verifyKernel, "mode=ok", nil),
	)
	return true
}

// TestVerifyIsolatesCrashes verifies the kernel above in real worker
// subprocesses (this test binary re-executed): each failing variant is
// reported with its cause at the size where it failed, the sound ones are
// verified at every size, the one needing a missing feature is skipped,
// and the results come in registry order.
func TestVerifyIsolatesCrashes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker subprocesses")
	}
	groups, skips, err := Select(Selection{Kernels: []string{verifyKernel}})
	if err != nil {
		t.Fatal(err)
	}
	var starts atomic.Int32
	start := ExecRunner()
	var order []string
	cfg := &VerifyConfig{Seed: 1, Jobs: 2, Timeout: time.Second,
		Start: func() (Runner, error) { starts.Add(1); return start() },
		Done:  func(r *VerifyResult) { order = append(order, r.Variant) }}
	res, err := Verify(context.Background(), cfg, VerifyTasks(groups, skips))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	checkVerifyResults(t, res)
	var want []string
	for _, v := range variant.Variants(verifyKernel) {
		want = append(want, v.Name)
	}
	if !reflect.DeepEqual(order, want) {
		t.Errorf("results passed to Done in order %q, want registry order %q", order, want)
	}
	// Two jobs start one worker each, plus one after each of four crashes.
	if n := starts.Load(); n > 2+4 {
		t.Errorf("%d workers started for 2 jobs and 4 crashes: variants are not batched", n)
	}
}

// verifyWant is what one variant of the verify test kernel should give.
type verifyWant struct {
	outcome Outcome
	passed  int
	fail    string // in the last failure's error or the skip reason
	failed  []int  // sizes of the failures
}

func checkVerifyResults(t *testing.T, res []*VerifyResult) {
	t.Helper()
	want := map[string]verifyWant{
		variant.GenericName: {Verified, 2, "", nil},
		"mode=segv":         {Crashed, 0, "SIGSEGV", []int{16}},
		"mode=sigill":       {Crashed, 0, "SIGILL", []int{16}},
		"mode=hang":         {Crashed, 0, "hung", []int{16}},
		"mode=wrong":        {Mismatched, 0, "edge #1 at index 32", []int{16, 32}},
		"mode=late":         {Crashed, 1, "SIGSEGV", []int{32}},
		"mode=needs":        {Skipped, 0, "missing CPU feature nosuchfeature", nil},
		"mode=ok":           {Verified, 2, "", nil},
	}
	if len(res) != len(want) {
		t.Fatalf("%d results, want %d", len(res), len(want))
	}
	for _, r := range res {
		w := want[r.Variant]
		var sizes []int
		msg := r.Reason
		for _, f := range r.Failures {
			sizes, msg = append(sizes, f.Size), f.Err
		}
		if r.Outcome != w.outcome || r.Passed != w.passed || !reflect.DeepEqual(sizes, w.failed) || !strings.Contains(msg, w.fail) {
			t.Errorf("variant %s: %v, %d sizes passed, failures at sizes %v, last message %q; want %v, %d passed, failures at %v, message containing %q",
				r.Variant, r.Outcome, r.Passed, sizes, msg, w.outcome, w.passed, w.failed, w.fail)
		}
	}
}

// TestVerifyStartFailure checks that a worker that cannot start stops
// the run with an error rather than blaming the variants.
func TestVerifyStartFailure(t *testing.T) {
	groups, skips, err := Select(Selection{Kernels: []string{testKernel}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &VerifyConfig{Jobs: 1, Start: func() (Runner, error) { return nil, errors.New("no binary") }}
	res, err := Verify(context.Background(), cfg, VerifyTasks(groups, skips))
	if err == nil || !strings.Contains(err.Error(), "no binary") {
		t.Errorf("Verify with a failing StartRunner: %d results, error %v; want the start error", len(res), err)
	}
}

// TestVerifyOneRefusesMissingFeatures checks the worker's own guard: it
// does not run a variant the host cannot execute, or one it does not know.
func TestVerifyOneRefusesMissingFeatures(t *testing.T) {
	for name, want := range map[string]string{"mode=needs": "missing CPU feature nosuchfeature", "mode=nosuch": "no verifiable variant"} {
		r := verifyOne(&Request{Op: opVerifyOne, Kernel: verifyKernel, Variant: name, Size: 16})
		if !strings.Contains(r.Error, want) || r.Mismatch {
			t.Errorf("verify-one %s: response %+v, want an error containing %q", name, r, want)
		}
	}
	if r := verifyOne(&Request{Op: opVerifyOne, Kernel: verifyKernel, Variant: "mode=ok", Size: 16}); r.Error != "" {
		t.Errorf("verify-one mode=ok: %s", r.Error)
	}
}

// TestVerifyLean runs a lean Verify in worker subprocesses: each variant
// is checked on a fresh instance (New, then Check), not by its Verify, so
// mode=wrong (whose Verify mismatches but whose instances check out) and
// mode=late (whose Verify crashes at size 32) pass at both sizes.
func TestVerifyLean(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker subprocesses")
	}
	groups, skips, err := Select(Selection{Kernels: []string{verifyKernel}, Variant: "mode=[lwo]*"})
	if err != nil {
		t.Fatal(err)
	}
	cfg := &VerifyConfig{Seed: 1, Jobs: 1, Timeout: 10 * time.Second, Start: ExecRunner(), Lean: true}
	res, err := Verify(context.Background(), cfg, VerifyTasks(groups, skips))
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if len(res) != 3 {
		t.Fatalf("%d results for mode=late, mode=ok and mode=wrong, want 3", len(res))
	}
	for _, r := range res {
		if r.Outcome != Verified || r.Passed != 2 {
			t.Errorf("lean verify of %s: %v with %d sizes passed (%+v), want verified at both sizes", r.Variant, r.Outcome, r.Passed, r.Failures)
		}
	}
}

// TestVerifyOneLean checks the worker's side: a lean verify-one checks a
// fresh instance instead of calling Verify, and still refuses a variant
// the host cannot run.
func TestVerifyOneLean(t *testing.T) {
	req := Request{Op: opVerifyOne, Kernel: verifyKernel, Variant: "mode=wrong", Size: 16}
	if r := verifyOne(&req); !r.Mismatch {
		t.Errorf("verify-one mode=wrong: %+v, want its Verify's mismatch", r)
	}
	req.Lean = true
	if r := verifyOne(&req); r.Error != "" {
		t.Errorf("lean verify-one mode=wrong: %s; want its instance's Check (nil)", r.Error)
	}
	req.Variant = "mode=needs"
	if r := verifyOne(&req); !strings.Contains(r.Error, "missing CPU feature") {
		t.Errorf("lean verify-one mode=needs: %+v, want a missing-feature error", r)
	}
}
