// Package anchorbench times whole operations on the footing of the C
// anchors (../shared/anchors: mlkem-native, the pq-crystals AVX2 ML-DSA):
// every call is timed on its own, its input prepared untimed before it,
// and the benchmark reports the median per-call time as ns/op and the mean
// as mean-ns/op, the metrics the anchors print, so that
// `tunelab compare anchors.txt ours.txt` and benchstat pair the lines
// BenchmarkAnchor/<set>/<op> of both by name.
package anchorbench

import (
	"slices"
	"testing"
	"time"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Run times op(i) for i = 0..b.N-1, each call after an untimed
// prepare(i) (nil for none), and reports the median as ns/op and the
// mean as mean-ns/op.
func Run(b *testing.B, prepare, op func(i int)) {
	b.Helper()
	median, mean := measure(b, prepare, op)
	b.ReportMetric(median, "ns/op")
	b.ReportMetric(mean, "mean-ns/op")
}

// Step times fn, a step of an operation, in samples of reps calls (reps
// doubled until a sample takes 5 µs) and reports the median time per
// call over the b.N samples as ns/op: the median resists the noise of a
// shared host better than the mean b.Loop reports.
func Step(b *testing.B, fn func()) {
	b.Helper()
	reps := 1
	for ; reps < 1<<16; reps *= 2 {
		start := time.Now()
		for range reps {
			fn()
		}
		if time.Since(start) > 5*time.Microsecond {
			break
		}
	}
	median, _ := measure(b, nil, func(int) {
		for range reps {
			fn()
		}
	})
	b.ReportMetric(median/float64(reps), "ns/op")
}

// measure returns the median and mean of b.N timed calls of op.
func measure(b *testing.B, prepare, op func(i int)) (median, mean float64) {
	times := make([]float64, b.N)
	b.ResetTimer()
	for i := range b.N {
		if prepare != nil {
			prepare(i)
		}
		start := time.Now()
		op(i)
		times[i] = float64(time.Since(start).Nanoseconds())
	}
	b.StopTimer()
	if b.N == 0 {
		return 0, 0
	}
	var sum float64
	for _, t := range times {
		sum += t
	}
	slices.Sort(times)
	return times[len(times)/2], sum / float64(len(times))
}

// A Rand is the anchors' deterministic generator (splitmix64, the
// anchor_fill of bench_common.h), for seeds and messages.
type Rand struct{ s uint64 }

// NewRand returns the generator in the anchors' initial state.
func NewRand() *Rand { return &Rand{s: 0x243f6a8885a308d3} }

// Fill fills out with the next bytes of the stream, one output per byte
// as anchor_fill does.
func (r *Rand) Fill(out []byte) {
	for i := range out {
		r.s += 0x9e3779b97f4a7c15
		z := r.s
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		out[i] = byte(z ^ z>>31)
	}
}

// Read fills p (an io.Reader for hedged signing); it never fails.
func (r *Rand) Read(p []byte) (int, error) {
	r.Fill(p)
	return len(p), nil
}

// Kernel benchmarks every runnable variant of kernel (offset-sweep copies
// left out), one sub-benchmark per variant named by it, each call of the
// variant's prepared instance timed by Step, and checks each afterwards.
func Kernel(b *testing.B, kernel string) {
	b.Helper()
	for _, v := range variant.Variants(kernel) {
		if v.OffsetSweep || !cpu.Has(v.Features...) {
			continue
		}
		b.Run(v.Name, func(b *testing.B) {
			in := v.New(0, 1)
			Step(b, func() { in.Run(1) })
			if err := in.Check(); err != nil {
				b.Fatal(err)
			}
		})
	}
}
