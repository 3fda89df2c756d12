package export

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
)

// The fleet fixtures (testdata/fleet, see genfleet.go there) are four
// sweeps of one fleet, one file per job as deploy/ runs them: a Zen 4 on
// bare metal (AVX-512), a Zen 4 in a VM that hides AVX-512 (same dispatch
// key), and two Sapphire Rapids nodes of one pool (two runs).
var fleetFiles = []string{"zen4-metal-0.txt", "zen4-vm-1.txt", "spr-a-2.txt", "spr-b-3.txt"}

const (
	zen4Key = "AuthenticAMD/0x19/0x11"
	sprKey  = "GenuineIntel/0x06/0x8f"
)

func fleetPaths() []string {
	out := make([]string, len(fleetFiles))
	for i, f := range fleetFiles {
		out[i] = fixture(filepath.Join("fleet", f))
	}
	return out
}

// exportFleet exports paths with ExportFiles, failing the test on an error,
// a warning or an invalid table.
func exportFleet(t *testing.T, paths []string) *Table {
	t.Helper()
	tab, warnings, err := ExportFiles(paths, reports.DefaultOptions())
	if err != nil {
		t.Fatalf("ExportFiles(%v): %v", paths, err)
	}
	if len(warnings) > 0 {
		t.Errorf("ExportFiles(%v): warnings %q", paths, warnings)
	}
	if err := tab.Validate(); err != nil {
		t.Fatalf("ExportFiles(%v): invalid table: %v", paths, err)
	}
	return tab
}

// permutations returns every ordering of xs.
func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{slices.Clone(xs)}
	}
	var out [][]string
	for i := range xs {
		rest := append(slices.Clone(xs[:i]), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{xs[i]}, p...))
		}
	}
	return out
}

// TestFleetMergeIgnoresFileOrder exports the fleet's files in all 24
// orders: the entries, defaults and evidence are the same every time, and
// so are the sources the table names (as a set; the Go source lists them
// in argument order).
func TestFleetMergeIgnoresFileOrder(t *testing.T) {
	paths := fleetPaths()
	want := exportFleet(t, paths)
	wantJSON := tableJSON(t, want)
	for _, perm := range permutations(paths)[1:] {
		got := exportFleet(t, perm)
		if j := tableJSON(t, got); !bytes.Equal(j, wantJSON) {
			t.Errorf("files in order %v: entries/defaults differ from order %v:\n%s\nwant\n%s", names(perm), names(paths), j, wantJSON)
		}
		if a, b := sortedCopy(got.GeneratedFrom), sortedCopy(want.GeneratedFrom); !slices.Equal(a, b) {
			t.Errorf("files in order %v: generated from %v, want %v", names(perm), a, b)
		}
		if src, wsrc := goSource(t, got), goSource(t, want); withoutSources(src) != withoutSources(wsrc) {
			t.Errorf("files in order %v: Go source differs beyond its list of sources:\n%s\nwant\n%s", names(perm), src, wsrc)
		}
	}
	if n := len(want.GeneratedFrom); n != len(paths) {
		t.Errorf("table generated from %d files, want %d", n, len(paths))
	}
}

// tableJSON encodes the order-independent part of a table: everything but
// its list of sources.
func tableJSON(t *testing.T, tab *Table) []byte {
	t.Helper()
	c := *tab
	c.GeneratedFrom = nil
	j, err := c.JSON()
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func goSource(t *testing.T, tab *Table) string {
	t.Helper()
	src, err := tab.GoSource()
	if err != nil {
		t.Fatal(err)
	}
	return string(src)
}

// withoutSources drops the "Generated from" comment lines of a Go table.
func withoutSources(src string) string {
	var keep []string
	for _, l := range strings.Split(src, "\n") {
		if !strings.HasPrefix(l, "//\tsha256:") {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

func sortedCopy(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return out
}

func names(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// TestFleetKeepsFeatureSetsApart checks that the two Zen 4 hosts, one
// dispatch key with and without AVX-512, give an entry each with its own
// features and winner, and that the two Sapphire Rapids runs of one pool
// merge into one entry per kernel from both runs' samples.
func TestFleetKeepsFeatureSetsApart(t *testing.T) {
	tab := exportFleet(t, fleetPaths())
	avx512 := strings.Join(zen4FixtureFeatures, ",")
	noAVX512 := strings.Join(zen4VMFixtureFeatures, ",")
	for _, c := range []struct {
		key, kernel string
		want        map[string]string // features -> unbounded variant
	}{
		{zen4Key, "test.fixed", map[string]string{avx512: "isa=avx512vl/unroll=2/align=64", noAVX512: "isa=avx2/unroll=2/align=64"}},
		{zen4Key, "test.sized", map[string]string{avx512: "isa=avx512vl", noAVX512: "isa=avx2"}},
		{sprKey, "test.fixed", map[string]string{avx512: "isa=avx2/unroll=2/align=64"}},
		{sprKey, "test.sized", map[string]string{avx512: "isa=avx512vl"}},
	} {
		if got := entriesOf(tab, c.key, c.kernel); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s %s entries (features -> unbounded variant) %v, want %v", c.key, c.kernel, got, c.want)
		}
	}
	for _, e := range tab.Entries {
		if e.Key() == sprKey && e.Evidence.Samples != 20 {
			t.Errorf("%s %s: evidence from %d samples, want 20 (10 from each of the pool's two runs)", e.Key(), e.Kernel, e.Evidence.Samples)
		}
		if e.Key() == zen4Key && e.Evidence.Samples != 10 {
			t.Errorf("%s %s [%s]: evidence from %d samples, want the 10 of its own host", e.Key(), e.Kernel, strings.Join(e.Features, ","), e.Evidence.Samples)
		}
	}
}

// fleetCopy writes a copy of a fleet file, edited by replacing old with
// new, under name in dir.
func fleetCopy(t *testing.T, dir, src, name string, replace ...string) string {
	t.Helper()
	data, err := os.ReadFile(fixture(filepath.Join("fleet", src)))
	if err != nil {
		t.Fatal(err)
	}
	s := strings.NewReplacer(replace...).Replace(string(data))
	if s == string(data) && len(replace) > 0 {
		t.Fatalf("fleetCopy %s: %q changed nothing", src, replace)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFleetRefusesConflictingDuplicates gives a fleet merge a file that
// claims the Zen 4 VM's run-id but another identity (the bare-metal
// features): a run's identity is fixed, so Read (report, compare) and
// ExportFiles refuse the merge in either order, naming the file and line.
func TestFleetRefusesConflictingDuplicates(t *testing.T) {
	dir := t.TempDir()
	forged := fleetCopy(t, dir, "zen4-vm-1.txt", "forged-9.txt",
		"features: "+strings.Join(sortedCopy(zen4VMFixtureFeatures), ","), "features: "+strings.Join(sortedCopy(zen4FixtureFeatures), ","))
	vm := fleetPaths()[1]
	for _, paths := range [][]string{{vm, forged}, {forged, vm}, append(fleetPaths(), forged)} {
		if _, _, err := reports.Read(paths); err == nil || !strings.Contains(err.Error(), "features changed") || !strings.Contains(err.Error(), ".txt:") {
			t.Errorf("Read(%v): %v, want a refusal naming file:line and the changed features", names(paths), err)
		}
		if _, _, err := ExportFiles(paths, reports.DefaultOptions()); err == nil {
			t.Errorf("ExportFiles(%v): no error for one run-id with two feature sets", names(paths))
		}
	}
}

// TestFleetDeduplicatesCopies merges the fleet with a second copy of one
// job's file (an artifact downloaded twice): the copy's results are
// counted once, with one warning naming it, and the table is the one
// Without the copy (up to its list of sources).
func TestFleetDeduplicatesCopies(t *testing.T) {
	copied := fleetCopy(t, t.TempDir(), "spr-a-2.txt", "spr-a-2-copy.txt")
	paths := append(fleetPaths(), copied)
	tab, warnings, err := ExportFiles(paths, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "spr-a-2-copy.txt") || !strings.Contains(warnings[0], "duplicate run-id") {
		t.Errorf("warnings %q, want one naming the duplicate copy", warnings)
	}
	if got, want := tableJSON(t, tab), tableJSON(t, exportFleet(t, fleetPaths())); !bytes.Equal(got, want) {
		t.Errorf("table with a duplicate copy differs from the table without it:\n%s\nwant\n%s", got, want)
	}
	set, _, err := reports.Read(paths)
	if err != nil {
		t.Fatal(err)
	}
	single, _, err := reports.Read(fleetPaths())
	if err != nil {
		t.Fatal(err)
	}
	if samples(set) != samples(single) {
		t.Errorf("Read with a duplicate copy: %d samples, want %d", samples(set), samples(single))
	}
}
