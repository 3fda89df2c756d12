package harness

import (
	"encoding/json"
	"fmt"
	"time"
)

// WorkerEnv is the environment variable that makes a process started by
// the harness serve the worker protocol; binaries that embed the harness
// (tests) check it before doing anything else.
const WorkerEnv = "TUNELAB_WORKER"

// WorkerExecEnv names an environment variable holding a command prefix for
// worker processes, split at spaces: with "qemu-x86_64 -cpu max,-vaes" a
// worker runs as "qemu-x86_64 -cpu max,-vaes EXE ARGS...", so that under
// user-mode emulation the workers emulate the same CPU as their parent
// (an exec of the same binary would otherwise run natively).
const WorkerExecEnv = "TUNELAB_WORKER_EXEC"

// Request operations of the worker protocol.
const (
	opSetup   = "setup"
	opVerify  = "verify"
	opPrepare = "prepare"
	opSample  = "sample"
	opCheck   = "check"
	// opVerifyOne verifies the variant named by Kernel and Variant at
	// Size with Seed. It needs no setup and leaves the worker's state
	// alone, so one worker verifies any number of variants in turn.
	opVerifyOne = "verify-one"
	// opClassSetup and opClassSample serve the constant-time check's
	// class measurement (classes.go): set up Target pinned to CPU, then
	// take Count measurements per sample request.
	opClassSetup  = "class-setup"
	opClassSample = "class-sample"
)

// A Request is one line the parent sends to a worker.
type Request struct {
	Op string `json:"op"`
	// Setup fields.
	Kernel     string   `json:"kernel,omitempty"`
	Size       int      `json:"size,omitempty"`
	Contenders []string `json:"contenders,omitempty"` // variant names, indexed by ID
	CPU        int      `json:"cpu"`                  // -1: do not pin
	SampleNs   int64    `json:"sample_ns,omitempty"`
	Events     string   `json:"events,omitempty"`
	Seed       uint64   `json:"seed,omitempty"`
	// ID selects the contender for verify, prepare, sample and check.
	ID int `json:"id"`
	// Variant names the variant for verify-one.
	Variant string `json:"variant,omitempty"`
	// Lean makes verify-one check one fresh instance (New, then Check: a
	// few inputs) instead of calling Verify (every edge case), for CPUs
	// emulated a hundred times slower than the host.
	Lean bool `json:"lean,omitempty"`
	// Target names the class target for class-setup; Count is the
	// number of measurements of a class-sample.
	Target string `json:"target,omitempty"`
	Count  int    `json:"count,omitempty"`
	// Timeout, if positive, is how long the parent waits for the answer
	// before it kills the worker as hung, instead of the default for the
	// operation. It stays on the parent's side.
	Timeout time.Duration `json:"-"`
}

// A Response is the worker's one-line answer to a Request.
type Response struct {
	// Error is non-empty when the operation failed; Mismatch marks a
	// correctness failure (*variant.Mismatch) as opposed to a setup error.
	Error    string `json:"error,omitempty"`
	Mismatch bool   `json:"mismatch,omitempty"`
	// Events answers setup: the status of each requested counter.
	Events []EventStatus `json:"events,omitempty"`
	// Iters answers prepare: iterations per sample.
	Iters int `json:"iters,omitempty"`
	// Sample answers sample.
	Sample *Sample `json:"sample,omitempty"`
	// Classes and Ticks answer class-sample: each measurement's class (0
	// fixed, 1 random) and TSC ticks.
	Classes []byte   `json:"classes,omitempty"`
	Ticks   []uint64 `json:"ticks,omitempty"`
}

// An EventStatus says whether a requested counter is counted on this host.
type EventStatus struct {
	Name      string `json:"name"`
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
}

// A Sample is one timed run of Iters iterations of a contender.
type Sample struct {
	Iters    int     `json:"iters"`
	NsPerOp  float64 `json:"ns_op"`
	TSCPerOp float64 `json:"tsc_op"` // 0 if the host has no TSC
	// Events holds per-op counts of the available events, in the order of
	// the setup response's available events.
	Events []float64 `json:"events,omitempty"`
	// Discarded counts attempts thrown away because a migration
	// disturbed them; Disturbed is set when every attempt was.
	Discarded int  `json:"discarded,omitempty"`
	Disturbed bool `json:"disturbed,omitempty"`
	// Corrected marks a sample disturbed by time off the CPU and timed
	// by the thread's CPU clock instead of the wall clock (see measure).
	Corrected bool `json:"corrected,omitempty"`
	// WallNs is the wall time the sample took, retries included.
	WallNs int64 `json:"wall_ns"`
	// CoreRatio is the estimated core cycles per TSC tick around the
	// sample (see clockProbe); 0 when unknown.
	CoreRatio float64 `json:"core_ratio,omitempty"`
}

func decodeLine(line []byte, v any) error {
	if err := json.Unmarshal(line, v); err != nil {
		return fmt.Errorf("decoding worker protocol line %.80q: %w", line, err)
	}
	return nil
}
