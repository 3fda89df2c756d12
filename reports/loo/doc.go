// Package loo evaluates the exported dispatch table by leave-one-out:
// for every CPU model of a report, the table is exported from the other
// models (reports/export), the model's kernels are resolved by a rule of
// kernels/dispatch (nearest entry, feature-keyed defaults, level
// defaults), and each pick is scored against the model's own winner: the
// regret, the time of the pick relative to the winner's (LeaveOneOut,
// LeaveOneOutAll; render writes the tables).
//
// loo imports reports and reports/export; neither imports it.
package loo

import "github.com/tunelab/tunelab/reports"

// A report is a *reports.Report with this package's evaluation as
// methods.
type report struct{ *reports.Report }

// LeaveOneOut evaluates rule on every model of r with a known identity.
func LeaveOneOut(r *reports.Report, rule Rule) *Result { return report{r}.leaveOneOut(rule) }

// LeaveOneOutAll evaluates main and then every other rule of Rules.
func LeaveOneOutAll(r *reports.Report, main Rule) []*Result { return report{r}.leaveOneOutAll(main) }
