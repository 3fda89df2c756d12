// Package render writes the decisions of package reports and the
// evidence behind them for people: plain text (WriteText, also the
// summary alone: WriteSummaryText), Markdown (WriteMarkdown) and HTML with
// inline SVG charts (WriteHTML: bar charts per group, size curves, knob
// effects, heat maps of speed-ups and winners), the leave-one-out tables
// (WriteLOOText) and old/new comparisons (WriteComparison).
//
// render decides nothing: every winner, size class, knob effect and
// leave-one-out figure it writes comes from the reports (and reports/loo)
// values it is given, so that each format says the same. It imports
// those packages; neither imports it.
package render
