package harness

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"sync"
	"time"

	"github.com/tunelab/tunelab/perfcounters"
)

// Class measurement, for the constant-time check of lab/ct (`tunelab ct
// --dynamic`, dudect's method): one timed call per measurement, on an
// input of class 0 (fixed) or 1 (random) drawn at random for each, on the
// worker's pinned thread, each call bracketed by RDTSCP. The input is
// prepared untimed before the call, the same way for both classes, so
// that only the class can make a difference.
//
// Targets are named; the worker (the same binary) resolves a name with
// the function lab/ct registers (RegisterClassTargets), so the harness
// stays free of anything family-specific.

// A ClassTarget is one operation under the constant-time check.
type ClassTarget interface {
	// Prepare readies the next call's input: class 0 the fixed input,
	// class 1 a fresh random one. It is not timed.
	Prepare(class int)
	// Run makes the timed call on the prepared input.
	Run()
}

// A ClassResolver returns a fresh target of the given name whose random
// inputs derive from seed.
type ClassResolver func(name string, seed uint64) (ClassTarget, error)

var (
	classMu       sync.Mutex
	classResolver ClassResolver
)

// RegisterClassTargets sets the resolver of class target names.
func RegisterClassTargets(r ClassResolver) {
	classMu.Lock()
	defer classMu.Unlock()
	classResolver = r
}

func resolveClassTarget(name string, seed uint64) (ClassTarget, error) {
	classMu.Lock()
	r := classResolver
	classMu.Unlock()
	if r == nil {
		return nil, errors.New("worker: no class targets registered (lab/ct not linked)")
	}
	return r(name, seed)
}

// classWarmup is the number of calls each class makes before the first
// measured batch: code, data and branch predictors settle.
const classWarmup = 200

// classSetup pins the worker thread and prepares the named target.
func (w *worker) classSetup(req *Request) *Response {
	if req.CPU >= 0 {
		if err := pinThread(req.CPU); err != nil {
			return &Response{Error: err.Error()}
		}
	}
	t, err := resolveClassTarget(req.Target, req.Seed)
	if err != nil {
		return &Response{Error: err.Error()}
	}
	w.close()
	*w = worker{classTarget: t, classRNG: rand.New(rand.NewPCG(req.Seed, 0x646475646563))}
	// Collections run between batches only (classSample), never during a
	// timed call.
	debug.SetGCPercent(-1)
	for i := 0; i < classWarmup; i++ {
		for c := 0; c < 2; c++ {
			t.Prepare(c)
			t.Run()
		}
	}
	return &Response{}
}

// classSample takes req.Count measurements in a random class order.
func (w *worker) classSample(req *Request) *Response {
	if w.classTarget == nil {
		return &Response{Error: "worker: class sample before class setup"}
	}
	if req.Count <= 0 {
		return &Response{Error: "worker: class sample of no measurements"}
	}
	runtime.GC()
	classes := make([]byte, req.Count)
	ticks := make([]uint64, req.Count)
	for i := range classes {
		classes[i] = byte(w.classRNG.Uint32() & 1)
	}
	t := w.classTarget
	for i, c := range classes {
		t.Prepare(int(c))
		t0, _ := perfcounters.RDTSCP()
		t.Run()
		t1, _ := perfcounters.RDTSCP()
		ticks[i] = t1 - t0
	}
	return &Response{Classes: classes, Ticks: ticks}
}

// A ClassConfig configures MeasureClasses.
type ClassConfig struct {
	Start StartRunner
	CPU   int // to pin the worker thread to; -1: no pinning
	Seed  uint64
	// N is the number of measurements wanted; Budget, if positive, ends
	// the measurement earlier (after a whole batch).
	N      int
	Budget time.Duration
	// Batch is the measurements per worker request (default 10000; the
	// first batch is smaller, and batches are sized to about a second).
	Batch int
}

// MeasureClasses measures the named target in a worker and passes every
// batch of measurements to sink, in order, until cfg.N are taken, the
// budget is spent or ctx is done. It returns the number taken.
func MeasureClasses(ctx context.Context, cfg ClassConfig, target string, sink func(classes []byte, ticks []uint64)) (int, error) {
	r, err := cfg.Start()
	if err != nil {
		return 0, err
	}
	defer r.Close()
	resp, err := r.Call(&Request{Op: opClassSetup, Target: target, CPU: cfg.CPU, Seed: cfg.Seed, Timeout: 10 * time.Minute})
	if err == nil && resp.Error != "" {
		err = errors.New(resp.Error)
	}
	if err != nil {
		return 0, fmt.Errorf("setting up %s: %w", target, err)
	}
	maxBatch := cfg.Batch
	if maxBatch <= 0 {
		maxBatch = 10000
	}
	start := time.Now()
	batch, done := min(1000, maxBatch, cfg.N), 0
	for done < cfg.N && ctx.Err() == nil && (cfg.Budget <= 0 || time.Since(start) < cfg.Budget) {
		n := min(batch, cfg.N-done)
		t0 := time.Now()
		resp, err := r.Call(&Request{Op: opClassSample, Count: n, Timeout: 10 * time.Minute})
		if err == nil && resp.Error != "" {
			err = errors.New(resp.Error)
		}
		if err != nil {
			return done, fmt.Errorf("measuring %s: %w", target, err)
		}
		if len(resp.Classes) != n || len(resp.Ticks) != n {
			return done, fmt.Errorf("measuring %s: worker returned %d classes and %d times, want %d", target, len(resp.Classes), len(resp.Ticks), n)
		}
		sink(resp.Classes, resp.Ticks)
		done += n
		// Size the next batch to about a second.
		per := time.Since(t0) / time.Duration(n)
		batch = max(100, min(maxBatch, int(time.Second/max(per, 1))))
	}
	return done, ctx.Err()
}
