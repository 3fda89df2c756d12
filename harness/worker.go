package harness

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
)

// ServeWorker serves the worker protocol (see the package comment) on in
// and out until in is closed. It locks the calling goroutine to its OS
// thread, which setup pins to the requested CPU. SIGINT and SIGTERM are
// ignored: the parent decides when to stop, so neither Ctrl-C on a
// terminal nor a scheduler stopping the job (Slurm signals every process
// of a step) cuts a sample short or passes for a crash; the worker ends
// when the parent closes in.
func ServeWorker(in io.Reader, out io.Writer) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	signal.Ignore(os.Interrupt, syscall.SIGTERM)
	w := &worker{}
	defer w.close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	enc := json.NewEncoder(out)
	for sc.Scan() {
		var req Request
		if err := decodeLine(sc.Bytes(), &req); err != nil {
			return err
		}
		if err := enc.Encode(w.handle(&req)); err != nil {
			return fmt.Errorf("worker writing response: %w", err)
		}
	}
	return sc.Err()
}

// A worker holds one group's contenders and the measurement state.
type worker struct {
	kernel    *variant.Kernel
	size      int
	seed      uint64
	target    time.Duration
	variants  []*variant.Variant
	instances []variant.Instance
	iters     []int
	meter     meter
	clock     *clockProbe
	// The class measurement's target and class order (classes.go).
	classTarget ClassTarget
	classRNG    *rand.Rand
}

func (w *worker) close() {
	if w.meter != nil {
		w.meter.close()
	}
}

func (w *worker) handle(req *Request) *Response {
	switch req.Op {
	case opSetup:
		return w.setup(req)
	case opVerifyOne:
		return verifyOne(req)
	case opClassSetup:
		return w.classSetup(req)
	case opClassSample:
		return w.classSample(req)
	}
	if w.kernel == nil {
		return &Response{Error: "worker: " + req.Op + " before setup"}
	}
	if req.ID < 0 || req.ID >= len(w.variants) {
		return &Response{Error: fmt.Sprintf("worker: contender id %d out of range", req.ID)}
	}
	switch req.Op {
	case opVerify:
		return errResponse(w.variants[req.ID].Verify(w.size, w.seed))
	case opPrepare:
		return w.prepare(req.ID)
	case opSample:
		return w.sample(req.ID)
	case opCheck:
		if w.instances[req.ID] == nil {
			return &Response{Error: "worker: check before prepare"}
		}
		return errResponse(w.instances[req.ID].Check())
	}
	return &Response{Error: "worker: unknown op " + req.Op}
}

func errResponse(err error) *Response {
	if err == nil {
		return &Response{}
	}
	var m *variant.Mismatch
	return &Response{Error: err.Error(), Mismatch: errors.As(err, &m)}
}

// verifyOne verifies one named variant against the generic reference
// (with Lean, on one fresh instance's inputs). It refuses a variant whose
// CPU features the host lacks rather than let it fault: the parent should
// not have asked.
func verifyOne(req *Request) *Response {
	v := variant.Lookup(req.Kernel, req.Variant)
	if v == nil || v.Verify == nil {
		return &Response{Error: fmt.Sprintf("worker: no verifiable variant %s of %s", req.Variant, req.Kernel)}
	}
	if missing := MissingFeatures(v); len(missing) > 0 {
		return &Response{Error: fmt.Sprintf("worker: variant %s of %s needs missing CPU feature %s",
			req.Variant, req.Kernel, strings.Join(missing, ","))}
	}
	if req.Lean && v.New != nil {
		return errResponse(v.New(req.Size, req.Seed).Check())
	}
	return errResponse(v.Verify(req.Size, req.Seed))
}

func (w *worker) setup(req *Request) *Response {
	k := variant.LookupKernel(req.Kernel)
	if k == nil {
		return &Response{Error: "worker: unknown kernel " + req.Kernel}
	}
	vs := make([]*variant.Variant, len(req.Contenders))
	for i, name := range req.Contenders {
		if vs[i] = variant.Lookup(req.Kernel, name); vs[i] == nil {
			return &Response{Error: fmt.Sprintf("worker: unknown variant %s of %s", name, req.Kernel)}
		}
	}
	if req.CPU >= 0 {
		if err := pinThread(req.CPU); err != nil {
			return &Response{Error: err.Error()}
		}
	}
	m, status, err := newMeter(req.Events)
	if err != nil {
		return &Response{Error: err.Error()}
	}
	w.close()
	*w = worker{kernel: k, size: req.Size, seed: req.Seed, target: time.Duration(req.SampleNs),
		variants: vs, instances: make([]variant.Instance, len(vs)), iters: make([]int, len(vs)), meter: m,
		clock: newClockProbe(req.Seed)}
	// Kernels do not allocate in Run; a collection mid-sample is noise.
	// Whole operations do (their results), and keep the collector on.
	if k.Allocates {
		debug.SetGCPercent(100)
	} else {
		debug.SetGCPercent(-1)
	}
	return &Response{Events: status}
}

func (w *worker) prepare(id int) *Response {
	// Every contender gets the same seed, so the same input: a kernel's
	// time may depend on it (ML-DSA signing restarts its rejection loop a
	// message- and key-dependent number of times), and contenders are
	// compared on equal work.
	in := w.variants[id].New(w.size, w.seed)
	w.instances[id] = in
	w.iters[id] = Calibrate(in, w.target)
	return &Response{Iters: w.iters[id]}
}

func (w *worker) sample(id int) *Response {
	if w.instances[id] == nil {
		return &Response{Error: "worker: sample before prepare"}
	}
	s := w.clock.around(func() Sample { return measure(w.instances[id], w.iters[id], w.meter) })
	return &Response{Sample: &s}
}
