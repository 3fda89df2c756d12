// Package resultfile owns tunelab's result-file format, its writer and
// its reader, as x/perf's benchfmt owns the Go benchmark format.
//
// A result file is the Go benchmark format (golang.org/x/perf/benchfmt):
// config lines that make it self-describing (HostConfig: host identity,
// Go and tunelab versions, run-id, date, decision rule, layout floor,
// the sweep's selection; each result adds its pkg, kernel and events),
// unit lines, and one result line per sample (BenchName:
// "BenchmarkKeccakX4/isa=avx2/size=64 1000 5.1 ns/op 13 tsc-cycles/op").
// tunelab's own harness lines ("# tunelab: KIND ...": segment, round,
// done, eliminated, excluded, align-placement, align-excluded; see the
// Kind constants and Mark) say which run and round the results after
// them belong to and what the race decided; benchfmt readers ignore them.
//
// Every tool that writes results (sweep, selftest, align) writes through
// a Writer, which never writes a line the Reader would skip. Files travel
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
