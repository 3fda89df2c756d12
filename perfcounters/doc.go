// Package perfcounters opens hardware and software performance counters for
// the calling OS thread with Linux perf_event_open, reads them with correct
// multiplex scaling, samples instruction pointers for profiles, and reads the
// time-stamp counter (TSC).
//
// Events are described by a Spec, parsed from perf-style names: generic
// hardware events ("cycles", "instructions", "ref-cycles", ...), hardware
// cache events ("L1-dcache-load-misses", "iTLB-load-misses"), raw PMU events
// ("r00c0", "event=0x76,umask=0x0,cmask=1,inv,edge"), software events
// ("task-clock", "context-switches", ...) and named microarchitecture
// front-end events ("opcache-hits", "ops-from-opcache", ...) from a table
// keyed by the microarchitecture names of kernels/cpu ("Zen 4",
// "Sapphire Rapids", ...).
//
// Counting degrades cleanly: every event of a Group is either available and
// counted, or unavailable with a reason (no PMU, perf_event_paranoid, invalid
// configuration, too many open files, ...). An unavailable event is never
// reported as zero: Read omits it and Status says why. Where kernel mode
// may not be counted (perf_event_paranoid=2 without CAP_PERFMON),
// software events count user mode only ("user mode only" in Status),
// except context switches and migrations, which only the kernel raises:
// they are unavailable there rather than a constant 0.
//
// TSC ticks are reference cycles at a constant frequency (TSCHz), not core
// clock cycles: a core running above or below its base clock executes more
// or fewer cycles per TSC tick.
package perfcounters
