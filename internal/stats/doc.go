// Package stats holds the statistics every part of tunelab shares, so
// that the race, the sweep summary, selftest, report, export and the
// lab's tools judge the same numbers the same way, each formula written
// once:
//
//   - summaries of one sample as benchstat computes them (x/perf's
//     benchmath, AssumeNothing): the median and its confidence interval
//     (Median, Summarize, Stat), and the Mann-Whitney U test between two
//     samples (UTest);
//   - the paired comparison the decision rule applies to arms measured
//     round by round (Paired: the Wilcoxon signed-rank test and the
//     Hodges–Lehmann interval on per-round log ratios), and Compare,
//     which pairs two summaries by round where they share enough rounds
//     and falls back to the medians and the U test where they do not
//     (Delta);
//   - the geometric mean of ratios with its t-interval (GeoMeanInterval);
//   - exact binomial statistics: the Clopper–Pearson interval of a rate
//     (ClopperPearson) and the sign test of a split (SignTestP);
//   - how reports print them (FormatPct, FormatPM, FormatP).
//
// Every interval is at level Confidence unless a function takes a level.
package stats
