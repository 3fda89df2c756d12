package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"
)

// TestFleetReportIsBuildIndependent: tunelab report --md over the fleet
// is a function of its files, not of the build that reads them. CI runs
// this test in the normal build (go test ./...) and in the purego build
// (go test -tags purego ./...), which links the generic variants only,
// against one golden digest; a difference between the two is a decision
// or a table that reads what the binary linked. After a change to the
// fleet or to the report's text, run go test -update here and check
// that the purego build agrees.
func TestFleetReportIsBuildIndependent(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the whole fleet (tens of MB): not with -short")
	}
	files, err := filepath.Glob("../../results/fleet/*.txt.gz")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fleet files (%v)", err)
	}
	md := filepath.Join(t.TempDir(), "fleet.md")
	if _, stderr, code := runCLI(t, append(append([]string{"report"}, files...), "--md", md)...); code != 0 {
		t.Fatalf("tunelab report over the fleet: exit %d, stderr %q", code, stderr)
	}
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	golden(t, "fleet_report_md.sha256", hex.EncodeToString(sum[:])+"\n")
}
