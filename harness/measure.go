package harness

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tunelab/tunelab/kernels/variant"
)

// maxAttempts bounds how often a disturbed sample is retaken.
const maxAttempts = 5

// pinThread binds the calling OS thread (locked by the caller) to cpu.
func pinThread(cpu int) error {
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return fmt.Errorf("pinning worker thread to cpu %d: %w", cpu, err)
	}
	return nil
}

// Calibrate warms in up and returns the iteration count for which one
// sample lasts about target: it grows n until a run takes target/8, then
// takes the fastest of five runs so a disturbed run cannot skew it.
func Calibrate(in variant.Instance, target time.Duration) int {
	in.Run(1)
	n := 1
	for timeRun(in, n) < target/8 && n < 1<<30 {
		n *= 4
	}
	best := timeRun(in, n)
	for i := 0; i < 4; i++ {
		best = min(best, timeRun(in, n))
	}
	iters := max(int(float64(n)*float64(target)/float64(max(best, 1))), 1)
	warmUp(in, iters, target)
	return iters
}

func timeRun(in variant.Instance, n int) time.Duration {
	start := time.Now()
	in.Run(n)
	return time.Since(start)
}

// warmUp runs in for about two target sample times so frequency, caches
// and branch predictors settle before the first sample.
func warmUp(in variant.Instance, iters int, target time.Duration) {
	deadline := time.Now().Add(2 * target)
	for time.Now().Before(deadline) {
		in.Run(max(iters/4, 1))
	}
}

// measure takes one undisturbed sample of iters iterations, retaking it
// (at most maxAttempts times) when the meter reports a context switch,
// migration or time off the CPU. If every attempt was disturbed it returns
// the fastest attempt, marked Disturbed: disturbance only ever adds time,
// so that is the least disturbed one.
func measure(in variant.Instance, iters int, m meter) Sample {
	start := time.Now()
	var best Sample
	for attempt := 0; attempt < maxAttempts; attempt++ {
		// A short pre-run brings the variant's code and data back into
		// the caches after the other contenders ran.
		in.Run(max(iters/64, 1))
		s := measureOnce(in, iters, m)
		if !s.Disturbed {
			s.Discarded = attempt
			best = s
			break
		}
		if attempt == 0 || s.NsPerOp < best.NsPerOp {
			best = s
		}
		best.Discarded = attempt + 1
	}
	best.WallNs = time.Since(start).Nanoseconds()
	return best
}

func measureOnce(in variant.Instance, iters int, m meter) Sample {
	m.start()
	t0, c0 := time.Now(), readTSC()
	in.Run(iters)
	c1 := readTSC()
	el := time.Since(t0)
	events, disturbed := m.stop(el.Nanoseconds())
	s := Sample{Iters: iters, NsPerOp: float64(el.Nanoseconds()) / float64(iters), Disturbed: disturbed}
	if c0 != 0 {
		s.TSCPerOp = float64(c1-c0) / float64(iters)
	}
	for _, e := range events {
		s.Events = append(s.Events, e/float64(iters))
	}
	return s
}

// A meter counts events around one sample and tells whether the sample
// was disturbed by a context switch or a migration.
type meter interface {
	start()
	stop(wallNs int64) (counts []float64, disturbed bool)
	close()
}
