package harness

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestCrashIsolation measures a group in real worker subprocesses (this
// test binary re-executed) where variants fault with SIGSEGV or SIGILL,
// hang, or fail verification: each is excluded with the reason, and the sound
// variant is measured to a verdict regardless.
func TestCrashIsolation(t *testing.T) {
	if testing.Short() {
		t.Skip("starts worker subprocesses")
	}
	groups, _, err := Select(Selection{Kernels: []string{crashKernel}})
	if err != nil {
		t.Fatal(err)
	}
	defer func(d time.Duration) { sampleTimeout = d }(sampleTimeout)
	sampleTimeout = 2 * time.Second
	var out, log bytes.Buffer
	// No elimination and no early stop before 40 samples: the late arms
	// fault after 3 ms of Run time, about 13 samples of 200µs in, so they
	// always crash during sampling whatever the host's noise.
	p := DefaultRaceParams
	p.MinSamples, p.MaxSamples = 40, 40
	cfg := &Config{Race: p, CPU: measuringCPU(t), SampleTime: 200 * time.Microsecond, Budget: time.Minute, Seed: 3,
		Start: ExecRunner(), Results: &out, Log: &log, Run: resultfile.Run{RunID: "1", Date: "d"}}
	rep, err := Sweep(context.Background(), cfg, groups)
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	want := map[string]string{
		variant.GenericName: "",
		"mode=segv":         "SIGSEGV",
		"mode=sigill":       "SIGILL",
		"mode=late":         "SIGSEGV",
		"mode=hang":         "hung",
		"mode=wrong":        "verify mismatch",
	}
	for _, a := range rep.Groups[0].Race.Arms {
		w := want[a.Label]
		switch {
		case w == "" && (a.Excluded || len(a.Values) < p.minSamples()):
			t.Errorf("sound variant %s: excluded=%v (%s) with %d samples; want measured to >= %d", a.Label, a.Excluded, a.Reason, len(a.Values), p.minSamples())
		case w != "" && (!a.Excluded || !strings.Contains(a.Reason, w)):
			t.Errorf("variant %s: excluded=%v reason %q; want excluded for %q", a.Label, a.Excluded, a.Reason, w)
		}
		if w != "" && !strings.Contains(out.String(), resultfile.CommentPrefix+"excluded "+crashKernel+" "+a.Label+" ") {
			t.Errorf("variant %s: no exclusion line in the result file", a.Label)
		}
	}
	if t.Failed() {
		t.Logf("log:\n%s", log.String())
	}
}

// TestServeWorkerInProcess runs the worker protocol over pipes in-process
// to check measurement itself: calibrated iterations, plausible timings.
func TestServeWorkerInProcess(t *testing.T) {
	reqs := []Request{
		{Op: opSetup, Kernel: testKernel, Size: 16, Contenders: []string{variant.GenericName}, CPU: -1, SampleNs: int64(time.Millisecond), Events: "task-clock"},
		{Op: opVerify}, {Op: opPrepare}, {Op: opSample}, {Op: opCheck}, {Op: opSample, ID: 5},
	}
	var in bytes.Buffer
	for _, r := range reqs {
		line, _ := jsonLine(r)
		in.Write(line)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- ServeWorker(&in, pw); pw.Close() }()
	var resps []Response
	dec := newLineDecoder(pr)
	for dec.Scan() {
		var r Response
		if err := decodeLine(dec.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		resps = append(resps, r)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(resps) != len(reqs) {
		t.Fatalf("%d responses to %d requests", len(resps), len(reqs))
	}
	for i, r := range resps[:5] {
		if r.Error != "" {
			t.Errorf("request %d (%s): %s", i, reqs[i].Op, r.Error)
		}
	}
	if resps[2].Iters < 1 {
		t.Errorf("prepare: %d iterations", resps[2].Iters)
	}
	s := resps[3].Sample
	if s == nil || s.Iters != resps[2].Iters || s.NsPerOp <= 0 || s.WallNs < int64(float64(s.Iters)*s.NsPerOp) {
		t.Errorf("sample %+v inconsistent with %d calibrated iterations", s, resps[2].Iters)
	}
	if resps[5].Error == "" {
		t.Error("sample of contender id 5 (of 1) gave no error")
	}
}

// TestWithExecPrefix checks the worker command under an exec prefix.
func TestWithExecPrefix(t *testing.T) {
	exe, args := withExecPrefix("/bin/tunelab", []string{"worker"}, " qemu-x86_64  -cpu max,-vaes ")
	if got := strings.Join(append([]string{exe}, args...), " "); got != "qemu-x86_64 -cpu max,-vaes /bin/tunelab worker" {
		t.Errorf("prefixed command %q", got)
	}
	if exe, args := withExecPrefix("/bin/tunelab", []string{"worker"}, ""); exe != "/bin/tunelab" || len(args) != 1 {
		t.Errorf("no prefix: %s %v", exe, args)
	}
}

// TestContendersGetTheSameInput checks that every contender of a group is
// prepared from the same seed: an input-dependent kernel (ML-DSA signing)
// is then compared on equal work.
func TestContendersGetTheSameInput(t *testing.T) {
	var seeds []uint64
	recording := func(name string) *variant.Variant {
		v := sumVariant(testKernel, name, nil)
		inner := v.New
		v.New = func(size int, seed uint64) variant.Instance {
			seeds = append(seeds, seed)
			return inner(size, seed)
		}
		return &v
	}
	w := &worker{size: 16, seed: 42, target: 100 * time.Microsecond,
		variants:  []*variant.Variant{recording("mode=a"), recording("mode=b"), recording("mode=c")},
		instances: make([]variant.Instance, 3), iters: make([]int, 3)}
	for id := range w.variants {
		if r := w.prepare(id); r.Error != "" {
			t.Fatal(r.Error)
		}
	}
	if len(seeds) != 3 || seeds[0] != 42 || seeds[1] != 42 || seeds[2] != 42 {
		t.Errorf("contenders prepared from seeds %v, want 42 for each", seeds)
	}
}
