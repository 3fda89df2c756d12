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
// sample time (fastest of five timing runs, then warm-up). It is retaken,
// up to five attempts, when the context-switch or migration software
// counters moved, RDTSCP reports another CPU, or the thread's CPU clock
// lags the wall clock by more than 1% (interrupts, steal time). When every
// attempt is disturbed the fastest one is returned, marked; a group drops
// such samples until one arm has lost two in a row, and from then on keeps
// them for every arm alike, so a busy host slows a sweep down without
// stalling it or biasing one arm.
//
// # Racing
//
// After every round an arm is eliminated when its median exceeds that of
// one of the three fastest arms by more than the threshold and the
// Mann-Whitney U test (benchmath.AssumeNothing) rejects equality at alpha;
// nothing happens before MinSamplesFor(alpha) samples. A race ends with one
// arm left, when every live arm's 95% interval is narrower than the
// threshold (settled), at MaxSamples, or when its share of the budget is
// spent (see budgeter).
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
