package export

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

func TestPlainBenchmarkFileIsUnknownHost(t *testing.T) {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/x\n")
	for i := 0; i < 10; i++ {
		b.WriteString("BenchmarkEncode/format=json-48 690848 1726 ns/op\nBenchmarkDecode-48 1000 52 ns/op\n")
	}
	path := fixtures.WriteFile(t, "plain.txt", b.String())
	set, warnings, err := reports.Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "unknown host") {
		t.Errorf("warnings %q, want exactly one (per file) about the unknown host", warnings)
	}
	if len(set.Models) != 1 || !set.Models[0].Unknown || len(set.Points) != 2 {
		t.Fatalf("models %+v, %d points; want the unknown host and 2 points", set.Models, len(set.Points))
	}
	if _, _, err := ExportFiles([]string{path}, reports.DefaultOptions()); err == nil || !strings.Contains(err.Error(), "unknown host") {
		t.Errorf("ExportFiles(plain file) error %v, want a refusal naming the unknown host", err)
	}
	tab, warnings, err := ExportFiles([]string{fixture("zen4.txt"), path}, reports.DefaultOptions())
	if err != nil || len(tab.Entries) == 0 {
		t.Fatalf("ExportFiles(zen4, plain): %v, %d entries", err, len(tab.Entries))
	}
	for _, e := range tab.Entries {
		if e.CPU.Vendor == "" || e.Kernel == "Encode" || e.Kernel == "Decode" {
			t.Errorf("entry %+v made from the unknown host's results", e)
		}
	}
	if !strings.Contains(strings.Join(warnings, "\n"), "no table entries or defaults are made from them") {
		t.Errorf("export warnings %q do not say the unknown host's results were left out", warnings)
	}
}
