// Package ct is tunelab's constant-time gate: what the static check found
// in every generated function, the dynamic (dudect-style) timing check of
// what production runs, and the self-test that plants leaks and requires
// both checks to flag them.
//
// # Static check
//
// Each generator runs variants/internal/ctcheck on avo's instruction
// stream as part of go generate and writes this package's zstatic_*.go
// files: per generated function, its instruction count and findings
// (function, instruction, line of the .s, and where the secret came
// from), and per variant the functions it runs. A finding is
//
//   - branch: a conditional branch whose flags (per flag: a JNZ after a
//     DEC of a public counter is public even when an earlier ADC left CF
//     secret) depend on a secret, or an indirect jump to a secret target;
//   - address: a load or store whose base or index register (a gather's
//     index vector too), or the opmask of a masked access, depends on a
//     secret;
//   - latency: DIV/IDIV (divisor or dividend), floating-point division,
//     square root and arithmetic (subnormal assists), or PDEP/PEXT (AMD Zen
//     1/2) with a secret operand.
//
// Secrets are what each generator declares: parameters that point to
// secret memory (states, keys, blocks, accumulators, polynomials) or hold
// secret values; lengths and counts are public, and every parameter must
// be classified. Taint flows through registers (including partial writes
// and implicit operands), flags, the local frame slot by slot (spills:
// strong updates for full-width moves), and the memory the function
// writes through its arguments (per argument region). Tables in static
// data are public unless the function writes a secret there.
//
// A generator may declassify an instruction (ctcheck.Public): its outputs
// are taken as public, for a stated reason, where the algorithm reveals
// the value by design (a rejection sampler's acceptance test). The status
// files list every declassified instruction (Func.Declassified), tunelab
// ct prints them, and a test requires each reason to be reviewed.
//
// What the static check does not see: timing of instructions it considers
// constant-time (multiplication, AES-NI, shuffles, masked blends), micro-
// architectural effects beyond the instruction stream (store forwarding,
// 4K aliasing, data-dependent power and frequency: Hertzbleed), the Go
// code around the kernels (the dynamic check and code review cover it),
// and values outside the analysed function (it assumes the caller passes
// what the declaration says).
//
// # Dynamic check
//
// Dudect's method (Reparaz, Balasch, Verbauwhede 2017) on what runs: each
// kernel's production variant per size class on this host (the plans of
// kernels/dispatch, through the variant registry), and the whole
// operations on the public API of kernels/mlkem and kernels/mldsa. The
// harness's worker (harness.MeasureClasses) interleaves the fixed and the
// random class in random order on its pinned thread and times one call per
// measurement with RDTSCP; Dudect computes Welch's t on all measurements,
// below each of 100 percentiles of the first batch, and on the squared
// deviations (second order). |t| above Threshold (4.5) is a finding.
//
// A target's Prepare does the same work for both classes: it makes both
// classes' inputs (in random order) and keeps one, or draws random bytes
// and copies either them or the fixed ones. Computing only the class's
// input before the timed call leaves class-dependent state in caches and
// branch predictors, which dudect detects as well as a leak (an
// encapsulation right before a decapsulation primes its re-encryption for
// valid ciphertexts only). Inputs that cannot be made that way come from
// pools made at setup (decapsulation's valid and invalid ciphertexts).
//
// Operations whose time varies by design are measured and labelled, not
// counted as findings: ML-KEM key generation from a whole seed (ρ, public,
// steers ExpandA's rejection sampling; the implicit-rejection seed z is
// tested alone), ML-DSA key generation (ExpandA on ρ, ExpandS's rejection
// count) and signing (the rejection loop). ML-DSA verification has no
// secret input and is listed as not measured.
//
// # Gate
//
// A variant with a finding never ships: the generator leaves it out of
// the production table and fails if the compiled dispatch table names it;
// export refuses to write it into a table; `tunelab ct` fails if the
// compiled table names one or a production helper function has a
// finding; list and report show each variant's status.
package ct
