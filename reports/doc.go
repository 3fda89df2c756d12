// Package reports turns benchmark result files (Go benchmark format, as
// written by the harness on any number of machines) into decisions and the
// evidence behind them: per CPU model, kernel and size a summary of every
// variant (benchmath AssumeNothing: median, 95% interval, Mann-Whitney U),
// a winner chosen by a stated rule, size classes, knob effects, a
// cross-machine matrix, text/Markdown/HTML reports and the dispatch table
// export (JSON and Go).
//
// The pipeline is Read (files -> Set), Analyze (Set -> Report), then one of
// the writers (WriteText, WriteMarkdown, WriteHTML), Export (-> Table, with
// JSON, Go and Validate) or CompareSets.
//
// Deltas are always time ratios minus one: -2.0% means 2% faster than the
// reference. "±x%" is the half-width of an approximate 95% interval.
//
// # Winner rule
//
// Per (CPU model, kernel, size), candidates are the variants that are
// neither external references (ext=...) nor offset-sweep members
// (align=64+N, N > 0). Only candidates with the samples benchmath needs
// for a 95% interval count; if a candidate with too few samples has the
// lowest median, there is no winner. The fastest candidate wins if its
// advantage over the runner-up is significant (Mann-Whitney U, alpha 0.05),
// larger than the threshold (1%), larger than the layout noise, and holds
// across offsets. Otherwise the simplest candidate that the fastest does
// not beat in that sense is kept (fewer required features, then smaller
// CodeBytes, then name) and the decision reads
// "tie: kept X; Y +0.4% ±0.9%, p=0.41".
//
// # Layout-bias guard
//
// An offset sweep is a set of variants of one group that differ only in
// align=64+N (align=64 being N=0). Its sensitivity is slowest median over
// fastest median minus one; the layout noise of a family on a CPU model is
// the largest sensitivity of its sweeps there. Differences to the winner
// below it are marked "within layout noise". A win holds across offsets
// when the margin exceeds the layout noise and, if the fastest variant's
// own sweep was measured, its slowest offset is still significantly faster
// than the runner-up.
package reports
