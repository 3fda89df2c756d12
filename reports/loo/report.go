package loo

import "github.com/tunelab/tunelab/reports"

// A report is a *reports.Report with this package's evaluation as
// methods.
type report struct{ *reports.Report }

// LeaveOneOut evaluates rule on every model of r with a known identity.
func LeaveOneOut(r *reports.Report, rule Rule) *Result { return report{r}.leaveOneOut(rule) }

// LeaveOneOutAll evaluates main and then every other rule of Rules.
func LeaveOneOutAll(r *reports.Report, main Rule) []*Result { return report{r}.leaveOneOutAll(main) }
