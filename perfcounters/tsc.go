package perfcounters

import (
	"math"
	"sort"
	"strings"
	"sync"
	"time"
)

// RDTSC returns the time-stamp counter: reference cycles at the constant
// rate TSCHz, not core clock cycles. RDTSC is not serializing; bracket
// short measurements with RDTSCP. Off amd64 it returns nanoseconds of the
// monotonic clock and TSCHz says so.
func RDTSC() uint64 { return rdtsc() }

// RDTSCP returns the time-stamp counter once all earlier instructions have
// executed, and the TSC_AUX value (on Linux: the CPU number in bits 0-11).
// Where CPUID does not enumerate RDTSCP (HaveRDTSCP is false) it executes
// LFENCE; RDTSC instead, ordered the same way, and aux is 0: callers that
// compare CPU numbers then see no migration.
func RDTSCP() (uint64, uint32) { return tscp() }

// HaveRDTSCP reports whether RDTSCP executes the RDTSCP instruction, that
// is whether CPUID enumerates it, rather than LFENCE; RDTSC.
func HaveRDTSCP() bool { return haveRDTSCP }

// haveRDTSCP and tscp are RDTSCP's CPUID check and the implementation it
// selects; tests force the fallback with tscpFor(false).
var (
	haveRDTSCP = cpuidRDTSCP()
	tscp       = tscpFor(haveRDTSCP)
)

// tscpFor returns RDTSCP's implementation on a CPU that enumerates RDTSCP
// (have) or does not.
func tscpFor(have bool) func() (uint64, uint32) {
	if have {
		return rdtscp
	}
	return lfenceRDTSC
}

var tscOnce struct {
	sync.Once
	hz     float64
	source string
}

// TSCHz returns the frequency of RDTSC's reference cycles and where it was
// found. In order: CPUID leaf 0x15 (exact), the kernel's own TSC
// calibration (perf's user page time_mult/time_shift, or sysfs
// tsc_freq_khz), CPUID leaf 0x16 or the hypervisor timing leaf, /proc/cpuinfo
// hints (bogomips = 2 x TSC MHz on x86), and finally a calibration against
// CLOCK_MONOTONIC. Approximate hints are cross-checked against a short
// calibration and dropped if they disagree by more than 2%. The result is
// computed once.
func TSCHz() (hz float64, source string) {
	tscOnce.Do(func() { tscOnce.hz, tscOnce.source = findTSCHz() })
	return tscOnce.hz, tscOnce.source
}

func findTSCHz() (float64, string) {
	if !haveTSC {
		return 1e9, "no TSC on this architecture: ticks are CLOCK_MONOTONIC nanoseconds"
	}
	if hz, src, ok := cpuidTSCHz(); ok && strings.Contains(src, "0x15") {
		return hz, src
	}
	if hz, src, ok := kernelTSCHz(); ok {
		return hz, src
	}
	cal := CalibrateTSC(20 * time.Millisecond)
	for _, hint := range []func() (float64, string, bool){cpuidTSCHz, cpuinfoTSCHz} {
		if hz, src, ok := hint(); ok && math.Abs(hz-cal)/cal < 0.02 {
			return hz, src + ", agrees with calibration"
		}
	}
	return cal, "calibrated against CLOCK_MONOTONIC"
}

// CalibrateTSC measures the TSC rate against the monotonic clock over about
// d, as the median of five spans of d/5.
func CalibrateTSC(d time.Duration) float64 {
	span := d / 5
	rates := make([]float64, 0, 5)
	for range 5 {
		t0, c0 := time.Now(), RDTSC()
		for time.Since(t0) < span {
		}
		c1, el := RDTSC(), time.Since(t0)
		rates = append(rates, float64(c1-c0)/el.Seconds())
	}
	sort.Float64s(rates)
	return rates[2]
}
