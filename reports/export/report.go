package export

import "github.com/tunelab/tunelab/reports"

// A report is a *reports.Report with this package's table building as
// methods.
type report struct{ *reports.Report }
