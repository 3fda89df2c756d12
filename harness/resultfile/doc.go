// Package resultfile reads tunelab result files as untrusted input.
//
// A result file is the Go benchmark format (golang.org/x/perf/benchfmt)
// plus tunelab's own harness lines ("# tunelab: segment ...", "done",
// "eliminated", "excluded"), which benchfmt readers ignore. Files travel
// from machines nobody here controls (a fleet's CI matrix, Kubernetes
// Jobs), so every command that reads one (report, export, compare,
// dispatch --results, sweep --resume) reads it through this package's
// Reader, which:
//
//   - opens regular files only (a directory, FIFO or device such as
//     /dev/zero is refused before anything is read);
//   - streams: memory is bounded by one line (at most MaxLineBytes) and a
//     little read-ahead, whatever the file's size; what a caller keeps is
//     its own;
//   - refuses binary data (a NUL byte or invalid UTF-8) and over-long
//     lines with file:line;
//   - skips, with a warning naming file:line and what was expected, a line
//     holding control or Unicode formatting characters (bidirectional
//     overrides, byte-order marks, zero-width characters), a malformed
//     result line, a result whose values are not finite, positive and in
//     range (ns/op, cycles, counts, iterations, /size=N), and a result
//     whose host identity does not have the shape tunelab writes (see
//     CheckResult and the identity checks);
//   - replaces an identity value that only labels results (uarch,
//     feature-level, tsc-hz) by nothing when it has the wrong shape, so
//     that no text from a file reaches generated code unchecked.
//
// Warnings are capped per file (MaxWarnings); a summary counts the rest.
package resultfile
