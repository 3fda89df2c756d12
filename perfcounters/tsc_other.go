//go:build !amd64

package perfcounters

import "time"

var start = time.Now()

// rdtsc returns nanoseconds since process start: there is no TSC here.
func rdtsc() uint64 { return uint64(time.Since(start)) }

// rdtscp is rdtsc with an unknown CPU number.
func rdtscp() (uint64, uint32) { return rdtsc(), 0 }

// lfenceRDTSC is rdtscp: there is nothing to fence here.
func lfenceRDTSC() (uint64, uint32) { return rdtscp() }

// cpuidRDTSCP reports false: there is no RDTSCP instruction here.
func cpuidRDTSCP() bool { return false }

const haveTSC = false

func cpuidTSCHz() (float64, string, bool) { return 0, "", false }
