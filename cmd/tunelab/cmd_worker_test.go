package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Environment hooks that let tests run this test binary as a subprocess:
// as the harness's measurement worker, or as tunelab itself (for Ctrl-C
// and exit-status tests), optionally with a kernel that fails verification.
const (
	testRunEnv       = "TUNELAB_TEST_RUN"        // tab-separated tunelab arguments
	testBadKernelEnv = "TUNELAB_TEST_BAD_KERNEL" // register kernel clitest.bad
	testHoldEnv      = "TUNELAB_TEST_HOLD"       // a sweep holds after its first round until signalled
)

func init() {
	if os.Getenv(testBadKernelEnv) == "1" {
		registerBadKernel()
	}
	if os.Getenv(harness.WorkerEnv) == "1" {
		if err := harness.ServeWorker(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	if os.Getenv(testHoldEnv) == "1" {
		testProgress = holdAfterFirstRound
	}
	if args := os.Getenv(testRunEnv); args != "" {
		os.Exit(exitCode(os.Stderr, run(os.Stdout, os.Stderr, strings.Split(args, "\t"))))
	}
}

// holdAfterFirstRound blocks a sweep at the first sample of its second
// round (the first round is then in the result file) until SIGINT or
// SIGTERM cancels it, so that a test that signals a running sweep finds
// it running however long the test itself takes to get the CPU.
func holdAfterFirstRound(ctx context.Context, p harness.Progress) {
	if p.Samples >= 2 {
		<-ctx.Done()
	}
}

// registerBadKernel registers kernel clitest.bad whose variant
// "mode=wrong" disagrees with the reference at index 3 of input "random #1"
// in Verify, and at index 5 of its instance's input in Check.
func registerBadKernel() {
	variant.RegisterKernel(variant.Kernel{Name: "clitest.bad", Family: "clitest", Bench: "CLITestBad", Unit: "op",
		UnitsPerOp: func(int) float64 { return 1 }, Doc: "verify exit-status test kernel"})
	ok := func(int, uint64) error { return nil }
	bad := func(int, uint64) error {
		return &variant.Mismatch{Kernel: "clitest.bad", Variant: "mode=wrong", Input: "random #1", Index: 3, Got: "0x0", Want: "0x1"}
	}
	newInst := func(int, uint64) variant.Instance { return &busyInstance{} }
	newBad := func(int, uint64) variant.Instance { return badInstance{} }
	variant.Register(variant.Variant{Kernel: "clitest.bad", Name: variant.GenericName, New: newInst, Verify: ok},
		variant.Variant{Kernel: "clitest.bad", Name: "mode=wrong", New: newBad, Verify: bad})
}

// badInstance is an instance whose Check reports a mismatch.
type badInstance struct{}

func (badInstance) Run(int) {}
func (badInstance) Check() error {
	return &variant.Mismatch{Kernel: "clitest.bad", Variant: "mode=wrong", Input: "instance input", Index: 5, Got: "0x0", Want: "0x1"}
}

// busyInstance is an instance whose op is a short dependent chain (about
// a hundred nanoseconds), so that sweeps of it record plausible samples.
type busyInstance struct{ x uint64 }

func (b *busyInstance) Run(n int) {
	for range n {
		for range 64 {
			b.x = b.x*6364136223846793005 + 1442695040888963407
		}
	}
}

func (b *busyInstance) Check() error { return nil }

// nopInstance is an instance that does nothing.
type nopInstance struct{}

func (nopInstance) Run(int)      {}
func (nopInstance) Check() error { return nil }
