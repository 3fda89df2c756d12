package harness

import (
	"fmt"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tunelab/tunelab/kernels/variant"
)

// maxAttempts bounds how often a sample is retaken after a migration.
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

// measure takes one sample of iters iterations. A sample disturbed by
// time off the CPU — preempted by another thread, interrupts, a
// hypervisor's steal time — is kept, timed by the thread's own CPU clock
// (CLOCK_THREAD_CPUTIME_ID), which leaves the time others ran out: the
// disturbance is modelled, not discarded. What remains of it (caches
// refilled after a switch, about 1% on a busy 2-CPU VM) is an outlier of
// one arm in one round, which the paired rank test absorbs. A sample
// whose thread migrated, or whose CPU clock is unreadable, is retaken (at
// most maxAttempts times); if every attempt was, the fastest is returned,
// marked Disturbed: disturbance only ever adds time.
func measure(in variant.Instance, iters int, m meter) Sample {
	start := time.Now()
	var best Sample
	for attempt := 0; attempt < maxAttempts; attempt++ {
		// A short pre-run brings the variant's code and data back into
		// the caches after the other contenders ran.
		in.Run(max(iters/64, 1))
		s, rd := measureOnce(in, iters, m)
		if !rd.disturbed {
			s.Discarded = attempt
			best = s
			break
		}
		if !rd.migrated && rd.onCPUNs > 0 {
			s.correct(rd.onCPUNs)
			s.Discarded = attempt
			best = s
			break
		}
		if attempt == 0 || s.NsPerOp < best.NsPerOp {
			best = s
		}
		best.Disturbed = true
		best.Discarded = attempt + 1
	}
	best.WallNs = time.Since(start).Nanoseconds()
	return best
}

// correct times the sample by the thread's CPU time instead of the wall
// clock (never more than the wall time), scaling TSC ticks alike.
func (s *Sample) correct(onCPUNs int64) {
	wall := s.NsPerOp * float64(s.Iters)
	on := min(float64(onCPUNs), wall)
	if wall <= 0 {
		return
	}
	s.NsPerOp = on / float64(s.Iters)
	s.TSCPerOp *= on / wall
	s.Corrected = true
}

func measureOnce(in variant.Instance, iters int, m meter) (Sample, reading) {
	m.start()
	t0, c0 := time.Now(), readTSC()
	in.Run(iters)
	c1 := readTSC()
	el := time.Since(t0)
	rd := m.stop(el.Nanoseconds())
	s := Sample{Iters: iters, NsPerOp: float64(el.Nanoseconds()) / float64(iters)}
	if c0 != 0 {
		s.TSCPerOp = float64(c1-c0) / float64(iters)
	}
	for _, e := range rd.counts {
		s.Events = append(s.Events, e/float64(iters))
	}
	return s, rd
}

// A meter counts events around one sample and tells whether the sample
// was disturbed by a context switch, a migration or time off the CPU.
type meter interface {
	start()
	stop(wallNs int64) reading
	close()
}

// A reading is what a meter saw over one sample.
type reading struct {
	counts []float64 // the requested events, in order
	// disturbed: a context switch, a migration or more than offCPUSlack
	// of the wall time off the CPU; migrated: the thread ran on another
	// CPU (or the counters could not be read).
	disturbed, migrated bool
	// onCPUNs is the thread's CPU time over the sample, -1 if unknown.
	onCPUNs int64
}
