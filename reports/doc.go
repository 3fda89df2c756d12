// Package reports turns benchmark result files (Go benchmark format, as
// written by the harness on any number of machines) into decisions and the
// evidence behind them: per CPU model, kernel and size a summary of every
// variant (benchmath AssumeNothing: median, 95% interval), comparisons
// paired by round (signed-rank, Hodges–Lehmann) or, without rounds,
// independent (Mann-Whitney U), a winner chosen by a stated rule, size
// classes, knob effects, the layout floor, a cross-machine matrix, the
// summary and the compiled table's check against the winners.
//
// The pipeline is Read (files -> Set, each file read once, through
// harness/resultfile, which owns the format and parses benchmark names)
// and Analyze (Set -> Report); CompareSets compares two sets. This
// package decides and renders nothing; its subpackages take a Report
// further and import it, never the reverse:
//
//   - reports/render writes it for people: text, Markdown, HTML/SVG;
//   - reports/export builds the dispatch table from it (JSON and Go,
//     diff, base merge, notes);
//   - reports/loo evaluates that table by leave-one-out;
//   - reports/tablesrc reads and writes the table's Go source.
//
// Deltas are always time ratios minus one: -2.0% means 2% faster than the
// reference. "±x%" is the half-width of an approximate 95% interval.
//
// # Winner rule
//
// Per (CPU model, kernel, size), candidates are the variants that are
// neither external references (ext=...) nor offset-sweep members
// (align=64+N, N > 0), nor eliminated or excluded by the race. Only
// candidates with the samples benchmath needs for a 95% interval count;
// if a candidate with too few samples has the lowest median, there is no
// winner. The fastest candidate wins if its advantage over the runner-up
// is significant (alpha 0.02) and larger than the threshold (1%), and
// survives layout (below). Otherwise the simplest candidate that the
// fastest does not beat in that sense is kept (fewer required features,
// then smaller CodeBytes, then name) and the decision reads
// "tie: kept X; Y +0.4% ±0.9%, p=0.41 (paired, 23 rounds)".
//
// Two variants measured in the same rounds (the sweep announces each
// round in its result file) are compared pair by pair: the Hodges–Lehmann
// estimate of the per-round time ratio, its exact 95% interval, and the
// Wilcoxon signed-rank test (internal/stats.Paired), so that whatever
// drifts between rounds cancels. Files without round lines (written by
// tunelab-winner/2 sweeps or by other tools) are compared as independent
// samples: ratio of medians and Mann-Whitney U, at the same alpha and
// threshold; their race's eliminations stand as recorded.
//
// # Layout-bias guard
//
// An offset sweep is a set of variants of one group that differ only in
// align=64+N (align=64 being N=0). Its sensitivity is slowest median over
// fastest median minus one; the layout noise of a family on a CPU model is
// the largest sensitivity of its sweeps there. A model's layout floor is
// the larger of that noise and the layout-floor its runs recorded (the
// largest difference the sweep measured between byte-identical copies of
// one function at other addresses). A win whose margin is below the floor
// is a tie, marked "within the layout floor", unless it keeps winning
// when both variants are moved: when an offset sweep of either was
// measured, the winner's slowest placement must still beat the other's
// fastest, significantly and by more than the threshold, whatever the
// margin.
package reports
