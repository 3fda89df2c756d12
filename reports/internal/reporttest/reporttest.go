// Package reporttest loads the fixtures of reports/testdata into analysed
// reports for the tests of the packages built on reports (render, export).
// It is test support: nothing that ships imports it.
package reporttest

import (
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// Load reads the named fixtures of reports/testdata and analyses them
// with the default options, returning the report and the reader's
// warnings.
func Load(t testing.TB, names ...string) (*reports.Report, []string) {
	t.Helper()
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = fixtures.Path(n)
	}
	set, warnings, err := reports.Read(paths)
	if err != nil {
		t.Fatalf("Read(%v): %v", names, err)
	}
	return reports.Analyze(set, reports.DefaultOptions()), warnings
}
