package reports

import (
	"path/filepath"
	"testing"

	_ "github.com/tunelab/tunelab/reports/internal/fixtures"
)

// fixture returns the path of a file in testdata.
func fixture(name string) string { return filepath.Join("testdata", name) }

// load reads fixtures and analyzes them with the default options.
func load(t *testing.T, names ...string) (*Report, []string) {
	t.Helper()
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = fixture(n)
	}
	set, warnings, err := Read(paths)
	if err != nil {
		t.Fatalf("Read(%v): %v", names, err)
	}
	return Analyze(set, DefaultOptions()), warnings
}
