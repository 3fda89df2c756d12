package harness

import (
	"context"
	"fmt"
	"runtime/debug"
	"strings"
	"testing"
)

// The class target of the tests, registered before the test binary can
// serve as a worker (package variables initialize before main_test.go's
// init runs the worker).
var _ = func() bool {
	RegisterClassTargets(func(name string, seed uint64) (ClassTarget, error) {
		if name != "harnesstest.classes" {
			return nil, fmt.Errorf("unknown class target %q", name)
		}
		return &countTarget{}, nil
	})
	return true
}()

// countTarget counts its prepared classes and calls.
type countTarget struct {
	prepared [2]int
	runs     int
	last     int
}

func (c *countTarget) Prepare(class int) { c.prepared[class]++; c.last = class }
func (c *countTarget) Run()              { c.runs++ }

func TestClassSampleInProcess(t *testing.T) {
	t.Cleanup(func() { debug.SetGCPercent(100) }) // class-setup turns collection off
	w := &worker{}
	if resp := w.handle(&Request{Op: opClassSetup, Target: "harnesstest.classes", CPU: -1, Seed: 5}); resp.Error != "" {
		t.Fatalf("class-setup: %s", resp.Error)
	}
	tgt := w.classTarget.(*countTarget)
	warm := tgt.runs
	resp := w.handle(&Request{Op: opClassSample, Count: 1000})
	if resp.Error != "" {
		t.Fatalf("class-sample: %s", resp.Error)
	}
	if len(resp.Classes) != 1000 || len(resp.Ticks) != 1000 {
		t.Fatalf("class-sample returned %d classes, %d times; want 1000 each", len(resp.Classes), len(resp.Ticks))
	}
	var n [2]int
	for _, c := range resp.Classes {
		if c > 1 {
			t.Fatalf("class %d out of range", c)
		}
		n[c]++
	}
	if n[0] < 400 || n[1] < 400 {
		t.Errorf("class counts %v of 1000: the order is not a fair random draw", n)
	}
	if tgt.runs-warm != 1000 {
		t.Errorf("target ran %d times for 1000 measurements", tgt.runs-warm)
	}
	if resp := w.handle(&Request{Op: opClassSetup, Target: "nosuch", CPU: -1}); !strings.Contains(resp.Error, "nosuch") {
		t.Errorf("class-setup of an unknown target: error %q, want one naming it", resp.Error)
	}
}

func TestMeasureClassesInWorker(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a worker subprocess")
	}
	var batches, total int
	var n [2]int
	cfg := ClassConfig{Start: ExecRunner(), CPU: measuringCPU(t), Seed: 9, N: 2500, Batch: 1000}
	got, err := MeasureClasses(context.Background(), cfg, "harnesstest.classes", func(classes []byte, ticks []uint64) {
		batches++
		total += len(classes)
		for _, c := range classes {
			n[c]++
		}
		if len(ticks) != len(classes) {
			t.Errorf("batch of %d classes and %d times", len(classes), len(ticks))
		}
	})
	if err != nil {
		t.Fatalf("MeasureClasses: %v", err)
	}
	if got != 2500 || total != 2500 || batches < 3 {
		t.Errorf("MeasureClasses took %d measurements (%d passed on in %d batches), want 2500 in batches of at most 1000", got, total, batches)
	}
	if n[0] == 0 || n[1] == 0 {
		t.Errorf("class counts %v: both classes must be measured", n)
	}
	_, err = MeasureClasses(context.Background(), cfg, "nosuch", func([]byte, []uint64) {})
	if err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Errorf("MeasureClasses of an unknown target: error %v, want one naming it", err)
	}
}
