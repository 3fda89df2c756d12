package export

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// TestExportWarnsOnBusyAndShortGroups: a group its sweep marked busy
// (quality line) makes export note the entry that rests on it; a quiet
// group does not.
func TestExportWarnsOnBusyAndShortGroups(t *testing.T) {
	data := fixtures.Marked(t) + resultfile.CommentPrefix + "quality test.fixed attempts=200 discarded=90 kept-disturbed=0 stop=settled\n" +
		resultfile.CommentPrefix + "quality test.sized/size=64 attempts=200 discarded=1 kept-disturbed=0 stop=settled\n"
	path := fixtures.WriteFile(t, "busy.txt", data)
	tab, _, err := ExportFiles([]string{path}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(tab.Notes, "\n")
	if !strings.Contains(joined, "the entry for test.fixed on AuthenticAMD/0x19/0x11 (Zen 4) rests on measurements the sweep marked busy") ||
		!strings.Contains(joined, path+": busy (90 of 200 attempts discarded as disturbed, stopped: settled)") {
		t.Errorf("notes lack the busy test.fixed group:\n%s", joined)
	}
	if strings.Contains(joined, "test.sized") {
		t.Errorf("a quiet group was noted:\n%s", joined)
	}
}

// TestLegacyBase: the legacy base's entries join the table marked, but
// not those of a CPU (key and feature set) the fleet measures.
func TestLegacyBase(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	tab := FromReport(r)
	zen4 := tab.Entries[0]
	other := zen4
	other.CPU.Model = 0x01
	other.Uarch = "Zen 3"
	base := &Table{Entries: []Entry{zen4, other}}
	notes := tab.AddLegacyBase(base, "sha256:00 results/fleet/legacy-base.json (legacy base)")
	n := 0
	for _, e := range tab.Entries {
		if e.LegacyBase {
			n++
			if e.Key() != "AuthenticAMD/0x19/0x01" {
				t.Errorf("legacy base entry of the measured %s kept", e.Key())
			}
		}
	}
	if n != 1 || len(notes) != 2 || !strings.Contains(notes[1], "dropped (a fleet file measures it") {
		t.Errorf("%d legacy entries, notes %q; want Zen 3's kept and Zen 4's dropped", n, notes)
	}
	if last := tab.GeneratedFrom[len(tab.GeneratedFrom)-1]; !strings.HasSuffix(last, "(legacy base)") {
		t.Errorf("sources end with %q, want the legacy base", last)
	}
}

// TestTableDiff: what a new table adds, replaces and drops.
func TestTableDiff(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	old := FromReport(r)
	if d := old.Diff(old); len(d) != 1 || d[0] != "no changes" {
		t.Errorf("a table against itself: %q", d)
	}
	r2, _ := load(t, "zen4.txt")
	cur := FromReport(r2)
	d := cur.Diff(old)
	last := d[len(d)-1]
	if !strings.HasSuffix(last, "dropped") || strings.HasPrefix(last, "0 added, 0 replaced, 0 dropped") {
		t.Errorf("diff without Sapphire Rapids: %q", d)
	}
	if !strings.Contains(strings.Join(d, "\n"), "entry dropped: test.fixed on GenuineIntel/0x06/0x8f (Sapphire Rapids") {
		t.Errorf("diff does not drop Sapphire Rapids' test.fixed entry:\n%s", strings.Join(d, "\n"))
	}
}
