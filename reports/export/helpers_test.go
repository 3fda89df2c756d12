package export

import (
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
	"github.com/tunelab/tunelab/reports/internal/reporttest"
)

// fixture returns the path of a file in reports/testdata.
func fixture(name string) string { return fixtures.Path(name) }

// load reads fixtures and analyzes them with the default options.
func load(t *testing.T, names ...string) (*reports.Report, []string) {
	t.Helper()
	return reporttest.Load(t, names...)
}

// samples counts the samples of a set.
func samples(set *reports.Set) int {
	n := 0
	for _, p := range set.Points {
		n += len(p.NS)
	}
	return n
}
