// Package harness verifies and measures registered kernel variants: it
// selects contenders, checks them against the generic reference, measures
// them on a pinned thread in a worker subprocess, interleaves them in
// randomized order every round, races them (eliminating variants that are
// significantly slower than the current best), and writes every sample in
// the Go benchmark format.
//
// The harness knows nothing family-specific: everything it runs comes from
// kernels/variant.
//
// # Measurement
//
// A sample runs a contender for an iteration count calibrated to the
// sample time (fastest of five timing runs, then warm-up). A sample
// disturbed by time off the CPU (a context switch to another thread,
// interrupts, a hypervisor's steal time: the context-switch counter
// moved, or the thread's CPU clock lags the wall clock by more than 1%)
// is kept and timed by the thread's CPU clock, which leaves out the time
// others ran; it counts as a disturbed sample kept. A sample whose
// thread migrated (RDTSCP reports another CPU, or the migration counter
// moved) is retaken, up to five attempts; when every attempt is, the
// fastest is returned, marked, and a group drops such samples until one
// arm has lost two in a row, and from then on keeps them for every arm
// alike, so a busy host slows a sweep down without stalling it or
// biasing one arm.
//
// # Racing
//
// Every round measures each live arm once, in random order, and the
// result file announces it ("round <group> <n>" before its samples), so
// arms are compared pair by pair over the rounds they share: what drifts
// between rounds cancels in the per-round time ratio. The race looks at
// its arms only at the round counts RaceParams.Looks gives (9, 14, 21,
// 32, 48 by default), each look at Alpha/len(Looks), so that looking
// often cannot inflate the false-positive rate (Bonferroni); at a look an
// arm is eliminated when, against one of the three fastest arms, the
// Hodges–Lehmann estimate of the per-round time ratio exceeds the margin
// (the threshold, or the host's layout floor where larger) and the
// Wilcoxon signed-rank test rejects equality (internal/stats.Paired). A
// race ends with one arm left, when every live arm's ratio to the
// fastest is known to within the margin (settled), at MaxSamples, or
// when its share of the budget is spent (see budgeter). The winner is
// then named by the reports package's rule over the same pairs.
//
// # Worker protocol
//
// Measurement runs in a worker process (the tunelab binary re-executed as
// `tunelab worker`, or any binary that calls ServeWorker when WorkerEnv is
// set), one worker per (kernel, size) group. The parent writes one JSON
// Request per line on the worker's stdin and reads exactly one JSON Response
// line per request from its stdout; the worker handles one request at a
// time. A group's conversation is
//
//	setup                       pin the thread, open counters
//	verify id   (per contender) Variant.Verify before measuring
//	prepare id  (per contender) New, warm up, calibrate iterations
//	sample id   (many, in the order the parent chooses)
//	check id    (per contender) Instance.Check after measuring
//
// and ends when the parent closes stdin. If the worker dies (SIGSEGV,
// SIGILL, a panic) or hangs (no answer within a timeout; it is killed)
// while serving a request for contender id, the crash is recorded against
// that contender, which is excluded; the parent starts a
// fresh worker, repeats setup and prepare for the remaining contenders, and
// carries on. Samples already received are kept.
//
// `tunelab verify` uses the same workers without groups: it sends one
// "verify-one" request per variant and size (kernel, variant and size
// named in the request, no setup), batching many variants per worker, and
// after a crash or hang reports that variant with its cause and goes on in
// a fresh worker (see Verify). A lean request checks one fresh instance
// (New, then Check) instead of calling the variant's Verify.
package harness
