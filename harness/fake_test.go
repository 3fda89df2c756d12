package harness

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
)

// fakeRunner serves the worker protocol in-process with synthetic,
// seeded samples: contender i of a group measures means[label]·(1+noise).
type fakeRunner struct {
	means   map[string]float64
	noise   float64
	rng     *rand.Rand
	labels  []string
	group   string
	calls   *[]fakeCall // every sample request, across restarts
	cancel  func()      // called after cancelAt samples, if set
	samples *int
	at      int
	disturb bool // every sample disturbed, after maxAttempts attempts
}

// A fakeCall records one sample request.
type fakeCall struct {
	Group string
	ID    int
	Value float64
}

func (f *fakeRunner) Call(req *Request) (*Response, error) {
	switch req.Op {
	case opSetup:
		f.labels = req.Contenders
		k := variant.LookupKernel(req.Kernel)
		f.group = groupKey(k, req.Size)
		return &Response{}, nil
	case opPrepare:
		return &Response{Iters: 100}, nil
	case opSample:
		v := f.means[f.labels[req.ID]] * (1 + f.noise*f.rng.NormFloat64())
		*f.calls = append(*f.calls, fakeCall{f.group, req.ID, v})
		*f.samples++
		if f.cancel != nil && *f.samples == f.at {
			f.cancel()
		}
		smp := &Sample{Iters: 100, NsPerOp: v, TSCPerOp: 2 * v, WallNs: int64(100 * v)}
		if f.disturb {
			smp.Disturbed, smp.Discarded = true, maxAttempts
		}
		return &Response{Sample: smp}, nil
	}
	return &Response{}, nil
}

func (f *fakeRunner) Close() error { return nil }

// fakeSweep is a sweep over the test kernel with a fakeRunner.
type fakeSweep struct {
	cfg     *Config
	calls   []fakeCall
	samples int
	means   map[string]float64
	noise   float64
	cancel  func()
	at      int
	disturb bool
}

func newFakeSweep(t *testing.T, path string, means map[string]float64) *fakeSweep {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	fs := &fakeSweep{means: means, noise: 0.002}
	rng := rand.New(rand.NewPCG(7, 8))
	fs.cfg = &Config{Race: DefaultRaceParams, CPU: -1, SampleTime: time.Millisecond, Budget: time.Hour, Seed: 11,
		Results: f, Run: resultfile.Run{RunID: "00000000000000aa", Date: "2026-01-01T00:00:00Z", TSCHz: 2e9},
		Start: func() (Runner, error) {
			return &fakeRunner{means: fs.means, noise: fs.noise, rng: rng, calls: &fs.calls, samples: &fs.samples,
				cancel: fs.cancel, at: fs.at, disturb: fs.disturb}, nil
		}}
	return fs
}

func testGroups(t *testing.T, glob string) []*Group {
	t.Helper()
	groups, _, err := Select(Selection{Kernels: []string{testKernel}, Variant: glob})
	if err != nil {
		t.Fatal(err)
	}
	return groups
}

func tempFile(t *testing.T) string { return filepath.Join(t.TempDir(), "results.txt") }

// rounds splits the sample calls of one group into rounds of n.
func rounds(calls []fakeCall, group string, n int) [][]int {
	var ids []int
	for _, c := range calls {
		if c.Group == group {
			ids = append(ids, c.ID)
		}
	}
	var out [][]int
	for len(ids) >= n {
		out = append(out, ids[:n])
		ids = ids[n:]
	}
	return out
}

func runFake(t *testing.T, fs *fakeSweep, groups []*Group) *Report {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	if fs.at > 0 {
		fs.cancel = cancel
	}
	rep, err := Sweep(ctx, fs.cfg, groups)
	if err != nil {
		t.Fatalf("Sweep: %v", err)
	}
	return rep
}

func jsonLine(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	return append(b, '\n'), err
}

func newLineDecoder(r io.Reader) *bufio.Scanner { return bufio.NewScanner(r) }
