package harness

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
)

// An Outcome is what verification made of one variant.
type Outcome int

// Outcomes, from best to worst; a variant's outcome is the worst over its
// sizes, except that Skipped variants never run.
const (
	Verified   Outcome = iota // matched the generic reference at every size
	Mismatched                // disagreed with the reference, or Verify failed
	Crashed                   // killed its worker (signal, panic, exit) or hung
	Skipped                   // not run: the host lacks a CPU feature it needs
)

func (o Outcome) String() string {
	switch o {
	case Verified:
		return "verified"
	case Mismatched:
		return "mismatched"
	case Crashed:
		return "crashed"
	case Skipped:
		return "skipped"
	}
	return fmt.Sprintf("Outcome(%d)", int(o))
}

// A VerifyTask is one variant to verify at each of Sizes, or to skip for
// Skip's reason.
type VerifyTask struct {
	Kernel  *variant.Kernel
	Variant *variant.Variant
	Sizes   []int
	Skip    string
}

// VerifyTasks turns what Select returned into one task per selected
// variant, in registry order (kernels by name, variants as registered):
// runnable ones with the sizes of their groups, skipped ones with the
// reason.
func VerifyTasks(groups []*Group, skips []Skip) []VerifyTask {
	sizes := map[*variant.Variant][]int{}
	used := map[string]bool{}
	for _, g := range groups {
		used[g.Kernel.Name] = true
		for _, c := range g.Contenders {
			sizes[c.Variant] = append(sizes[c.Variant], g.Size)
		}
	}
	skip := map[*variant.Variant]string{}
	for _, s := range skips {
		used[s.Kernel] = true
		skip[variant.Lookup(s.Kernel, s.Variant)] = s.Reason
	}
	var tasks []VerifyTask
	for _, k := range variant.Kernels() {
		if !used[k.Name] {
			continue
		}
		for _, v := range variant.Variants(k.Name) {
			if why, ok := skip[v]; ok || sizes[v] != nil {
				tasks = append(tasks, VerifyTask{Kernel: k, Variant: v, Sizes: sizes[v], Skip: why})
			}
		}
	}
	return tasks
}

// A SizeFailure is a size at which a variant mismatched or crashed.
type SizeFailure struct {
	Group   string // the group key, "kernel" or "kernel/size=N"
	Size    int
	Outcome Outcome // Mismatched or Crashed
	Err     string  // one line
}

// A VerifyResult is the outcome of one VerifyTask.
type VerifyResult struct {
	Kernel, Variant string
	Outcome         Outcome
	Reason          string        // why it was skipped
	Passed          int           // sizes that matched the reference
	Failures        []SizeFailure // in size order; a crash ends the list
	Elapsed         time.Duration
}

// A VerifyConfig configures Verify.
type VerifyConfig struct {
	Seed  uint64 // seeds the random inputs
	Start StartRunner
	// Jobs is how many workers verify in parallel (at least one).
	Jobs int
	// Timeout bounds one variant at one size; a worker that takes longer
	// is killed and the variant counts as hung. 0 means DefaultVerifyTimeout.
	Timeout time.Duration
	// Done, if set, is called with each result in task order, as soon as
	// it and every result before it are known. Calls do not overlap.
	Done func(*VerifyResult)
	// Lean checks each variant on one fresh instance per size (New, then
	// Check: a few inputs) instead of calling its Verify (every edge
	// case): for emulated CPUs, where Verify is too slow for every variant.
	Lean bool
}

// DefaultVerifyTimeout is how long one variant may take to verify at one
// size before its worker counts as hung. The slowest reference (generic
// AES-256 at 1 MiB) takes a few seconds; emulated tiers take far longer.
const DefaultVerifyTimeout = time.Minute

// Verify verifies tasks against the generic reference in worker
// subprocesses, each of which verifies task after task until it dies. A
// variant that kills or hangs its worker is reported as crashed, at the
// size where it did, and not run at its further sizes; a fresh worker
// takes the next task. Skipped tasks never reach a worker.
//
// Verify returns the results of the tasks that finished, in task order:
// all of them, unless ctx was cancelled (tasks in flight still finish) or
// no worker could be started (the error).
func Verify(ctx context.Context, cfg *VerifyConfig, tasks []VerifyTask) ([]*VerifyResult, error) {
	v := &verifier{cfg: cfg, tasks: tasks, results: make([]*VerifyResult, len(tasks))}
	var wg sync.WaitGroup
	for range max(cfg.Jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v.job(ctx)
		}()
	}
	wg.Wait()
	return v.results[:v.emitted], v.err
}

// A verifier hands tasks to jobs and collects their results in order.
type verifier struct {
	cfg     *VerifyConfig
	tasks   []VerifyTask
	mu      sync.Mutex
	results []*VerifyResult
	next    int   // the next task to hand out
	emitted int   // results passed to Done
	err     error // the first failure to start a worker: stops the run
}

// take returns the index of the next task, or -1 when there is none left
// or the run is stopping.
func (v *verifier) take(ctx context.Context) int {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.next == len(v.tasks) || v.err != nil || ctx.Err() != nil {
		return -1
	}
	v.next++
	return v.next - 1
}

// finish records result i and passes on every result now known in order.
func (v *verifier) finish(i int, r *VerifyResult) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.results[i] = r
	for v.emitted < len(v.results) && v.results[v.emitted] != nil {
		if v.cfg.Done != nil {
			v.cfg.Done(v.results[v.emitted])
		}
		v.emitted++
	}
}

func (v *verifier) fail(err error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.err == nil {
		v.err = err
	}
}

// job verifies tasks with one worker at a time until none are left.
func (v *verifier) job(ctx context.Context) {
	var r Runner
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	for i := v.take(ctx); i >= 0; i = v.take(ctx) {
		res, err := v.verify(&v.tasks[i], &r)
		if err != nil {
			v.fail(err)
			return
		}
		v.finish(i, res)
	}
}

// verify runs task t on the worker *r, starting one if *r is nil and
// leaving it nil after a crash, which ends the task (so a worker only
// ever starts before a task's first size).
func (v *verifier) verify(t *VerifyTask, r *Runner) (*VerifyResult, error) {
	res := &VerifyResult{Kernel: t.Kernel.Name, Variant: t.Variant.Name, Reason: t.Skip}
	if t.Skip != "" {
		res.Outcome = Skipped
		return res, nil
	}
	if *r == nil {
		var err error
		if *r, err = v.cfg.Start(); err != nil {
			return nil, fmt.Errorf("starting verify worker: %w", err)
		}
	}
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	for _, size := range t.Sizes {
		if f := v.verifySize(t, size, r); f != nil {
			res.add(f)
			if f.Outcome == Crashed {
				break
			}
			continue
		}
		res.Passed++
	}
	return res, nil
}

// verifySize verifies t at one size on *r and returns the failure, if
// any. A worker that crashed, hung or broke the protocol is closed and
// *r set to nil.
func (v *verifier) verifySize(t *VerifyTask, size int, r *Runner) *SizeFailure {
	timeout := v.cfg.Timeout
	if timeout <= 0 {
		timeout = DefaultVerifyTimeout
	}
	resp, err := (*r).Call(&Request{Op: opVerifyOne, Kernel: t.Kernel.Name, Variant: t.Variant.Name,
		Size: size, Seed: v.cfg.Seed, CPU: -1, Timeout: timeout, Lean: v.cfg.Lean})
	f := &SizeFailure{Group: groupKey(t.Kernel, size), Size: size, Outcome: Mismatched}
	switch {
	case err != nil:
		var crash *CrashError
		if !errors.As(err, &crash) {
			err = fmt.Errorf("worker broke the protocol: %w", err)
		}
		(*r).Close()
		*r = nil
		f.Outcome, f.Err = Crashed, oneLine(err.Error())
	case resp.Error != "":
		f.Err = oneLine(resp.Error)
	default:
		return nil
	}
	return f
}

func (r *VerifyResult) add(f *SizeFailure) {
	r.Failures = append(r.Failures, *f)
	r.Outcome = max(r.Outcome, f.Outcome)
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// VerifyCounts tallies results by outcome.
type VerifyCounts [Skipped + 1]int

// Add counts r.
func (c *VerifyCounts) Add(r *VerifyResult) { c[r.Outcome]++ }

// Total returns the number of results counted.
func (c *VerifyCounts) Total() int {
	n := 0
	for _, x := range c {
		n += x
	}
	return n
}

// Failed returns the number of variants that mismatched or crashed.
func (c *VerifyCounts) Failed() int { return c[Mismatched] + c[Crashed] }
