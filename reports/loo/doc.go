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
