package render

import (
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// fixture returns the path of a file in reports/testdata.
func fixture(name string) string { return fixtures.Path(name) }

// load reads fixtures and analyzes them with the default options.
func load(t *testing.T, names ...string) (*reports.Report, []string) {
	t.Helper()
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = fixture(n)
	}
	set, warnings, err := reports.Read(paths)
	if err != nil {
		t.Fatalf("Read(%v): %v", names, err)
	}
	return reports.Analyze(set, reports.DefaultOptions()), warnings
}
