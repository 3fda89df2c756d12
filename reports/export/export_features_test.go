package export

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/reports"
)

// zen4VM writes a copy of the Zen 4 fixture as measured in a VM that
// hides AVX-512: other features and run id, no AVX-512 results.
func zen4VM(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.Contains(l, "isa=avx512") {
			lines = append(lines, l)
		}
	}
	s := strings.NewReplacer("avx512bw,avx512cd,avx512dq,avx512f,avx512vl,", "",
		"feature-level: x86-64-v4", "feature-level: x86-64-v3", "run-id: a1b2c3d4", "run-id: 0f0f0f0f").Replace(strings.Join(lines, "\n"))
	path := filepath.Join(t.TempDir(), "zen4-vm.txt")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

var (
	zen4FixtureFeatures = []string{"sse41", "avx", "avx2", "bmi1", "bmi2", "adx", "aes", "pclmulqdq",
		"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"}
	zen4VMFixtureFeatures = zen4FixtureFeatures[:8]
)

// entriesOf returns the features and unbounded variant of each entry of
// one model and kernel.
func entriesOf(tab *Table, key, kernel string) map[string]string {
	out := map[string]string{}
	for _, e := range tab.Entries {
		if e.Key() == key && e.Kernel == kernel {
			out[strings.Join(e.Features, ",")] = e.Choices[len(e.Choices)-1].Variant
		}
	}
	return out
}

// TestExportFilesKeepsFeatureSetsApart exports the Zen 4 fixture with a
// copy measured without AVX-512: one entry per feature set.
func TestExportFilesKeepsFeatureSetsApart(t *testing.T) {
	tab, warnings, err := ExportFiles([]string{fixture("zen4.txt"), zen4VM(t), fixture("spr.txt")}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("warnings %q", warnings)
	}
	if err := tab.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	got := entriesOf(tab, "AuthenticAMD/0x19/0x11", "test.fixed")
	want := map[string]string{
		strings.Join(zen4FixtureFeatures, ","):   "isa=avx512vl/unroll=2/align=64",
		strings.Join(zen4VMFixtureFeatures, ","): "isa=avx2/unroll=2/align=64",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Zen 4 test.fixed entries (features -> unbounded variant) %v, want %v", got, want)
	}
	if n := len(tab.GeneratedFrom); n != 3 {
		t.Errorf("generated from %d files, want 3", n)
	}
	single, _ := load(t, "zen4.txt", "spr.txt")
	if n := len(entriesOf(FromReport(single), "AuthenticAMD/0x19/0x11", "test.fixed")); n != 1 {
		t.Errorf("one feature set per model gives %d Zen 4 test.fixed entries, want 1", n)
	}
}

// TestExportRoundTripFeatures writes the table as JSON and as Go, reads
// each back as a base table and checks that nothing was lost.
func TestExportRoundTripFeatures(t *testing.T) {
	tab, _, err := ExportFiles([]string{fixture("zen4.txt"), zen4VM(t), fixture("spr.txt")}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	js, err := tab.JSON()
	if err != nil {
		t.Fatal(err)
	}
	src, err := tab.GoSource()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"table.json": js, "ztable.go": src} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		back, err := ReadTable(path)
		if err != nil {
			t.Fatalf("ReadTable(%s): %v", name, err)
		}
		if err := back.Validate(); err != nil {
			t.Errorf("%s read back does not validate: %v", name, err)
		}
		again, err := back.GoSource()
		if err != nil || string(again) != string(src) {
			t.Errorf("%s read back gives other Go source (err %v):\n%s\nwant:\n%s", name, err, again, src)
		}
		for i, e := range back.Entries {
			if w := tab.Entries[i]; e.Key() != w.Key() || e.Kernel != w.Kernel || !reflect.DeepEqual(e.Features, w.Features) || e.legacy {
				t.Errorf("%s entry %d: %s %s %v (legacy %v), want %s %s %v", name, i, e.Key(), e.Kernel, e.Features, e.legacy, w.Key(), w.Kernel, w.Features)
			}
		}
		if name == "table.json" && !reflect.DeepEqual(back.Entries, tab.Entries) {
			t.Errorf("JSON round trip changed entries:\n got %+v\nwant %+v", back.Entries, tab.Entries)
		}
		if !reflect.DeepEqual(sortedDefaults(back.Defaults), sortedDefaults(tab.Defaults)) {
			t.Errorf("%s round trip changed defaults:\n got %+v\nwant %+v", name, back.Defaults, tab.Defaults)
		}
	}
}

// sortedDefaults sorts defaults by kernel, then from the highest level.
func sortedDefaults(ds []Default) []Default {
	out := append([]Default{}, ds...)
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Kernel != out[j].Kernel {
			return out[i].Kernel < out[j].Kernel
		}
		return levelRank(out[i].Level) > levelRank(out[j].Level)
	})
	return out
}

// legacyBase is a table as exported before features were recorded: one
// Sapphire Rapids entry and a default, as ReadTable gives it.
func legacyBase(t *testing.T) *Table {
	t.Helper()
	ch := func(v string) []dispatch.Choice { return []dispatch.Choice{{MaxSize: 0, Variant: v}} }
	dt := dispatch.Table{
		Entries: []dispatch.Entry{
			{Vendor: "GenuineIntel", Family: 6, Model: 0x8f, Uarch: "Sapphire Rapids", Kernel: "test.fixed", Choices: ch("isa=avx512vl/unroll=1/align=none")},
			{Vendor: "GenuineIntel", Family: 6, Model: 0xcf, Uarch: "Emerald Rapids", Kernel: "test.fixed", Choices: ch("isa=avx512vl/unroll=2/align=none")},
		},
		Defaults: []dispatch.Default{{Level: "x86-64-v3", Features: []string{"avx2"}, Kernel: "test.fixed", Choices: ch("isa=avx2/unroll=1/align=none")}},
	}
	return FromDispatch(dt, []string{"sha256:0123 old sweep"})
}

func TestMergeBase(t *testing.T) {
	base := legacyBase(t)
	if err := base.AssumeFeatures("GenuineIntel/0x06/0xcf", zen4FixtureFeatures); err != nil {
		t.Fatal(err)
	}
	tab, _, err := ExportFiles([]string{zen4VM(t), fixture("spr.txt")}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	// A level the files did not measure a kernel at keeps base's default.
	kept := Default{Level: "x86-64-v4", Features: []string{"avx", "avx2"}, Kernel: "test.sized", Choices: []Choice{{Variant: "isa=avx2"}}}
	base.Defaults = append(base.Defaults, kept)
	tab.Defaults = slices.DeleteFunc(tab.Defaults, func(d Default) bool { return d.Kernel == kept.Kernel && d.Level == kept.Level })
	notes := tab.Merge(base)
	if err := tab.Validate(); err != nil {
		t.Fatalf("merged table does not validate: %v", err)
	}
	if !slices.ContainsFunc(tab.Defaults, func(d Default) bool { return reflect.DeepEqual(d, kept) }) {
		t.Errorf("base default %+v of a level the files do not measure was not kept: %+v", kept, tab.Defaults)
	}
	spr := entriesOf(tab, "GenuineIntel/0x06/0x8f", "test.fixed")
	if len(spr) != 2 || spr[""] != "isa=avx512vl/unroll=1/align=none" {
		t.Errorf("Sapphire Rapids entries %v, want the legacy one kept beside the measured one", spr)
	}
	emr := entriesOf(tab, "GenuineIntel/0x06/0xcf", "test.fixed")
	if want := map[string]string{strings.Join(zen4FixtureFeatures, ","): "isa=avx512vl/unroll=2/align=none"}; !reflect.DeepEqual(emr, want) {
		t.Errorf("Emerald Rapids entries %v, want %v (features assumed)", emr, want)
	}
	if len(entriesOf(tab, "AuthenticAMD/0x19/0x11", "test.sized")) != 1 {
		t.Errorf("the Zen 4 VM's test.sized entry is missing")
	}
	fixed := map[string]string{}
	for _, d := range tab.Defaults {
		if d.Kernel == "test.fixed" {
			fixed[d.Level] = d.Choices[0].Variant
		}
	}
	if v3 := fixed["x86-64-v3"]; len(fixed) != 3 || v3 != "isa=avx2/unroll=2/align=64" {
		t.Errorf("test.fixed defaults %v, want the files' at v2, v3 and v4 (v3 replacing the base's isa=avx2/unroll=1)", fixed)
	}
	if tab.GeneratedFrom[0] != "sha256:0123 old sweep" || len(tab.GeneratedFrom) != 3 {
		t.Errorf("generated from %q, want the base's source first, then the two files", tab.GeneratedFrom)
	}
	joined := strings.Join(notes, "\n")
	for _, want := range []string{"entries of GenuineIntel/0x06/0x8f have no recorded features", "1 defaults of the base table replaced by the result files' measurements: test.fixed x86-64-v3"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes %q, want one containing %q", notes, want)
		}
	}
	src, err := tab.GoSource()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), `Uarch: "Sapphire Rapids", Kernel: "test.fixed", Choices:`) {
		t.Errorf("legacy entry not written without features:\n%s", src)
	}
}

func TestMergeReplacesSameFeatureSet(t *testing.T) {
	old, _, err := ExportFiles([]string{fixture("spr.txt")}, reports.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i := range old.Entries {
		old.Entries[i].Choices = []Choice{{0, "isa=generic"}}
	}
	tab, _, _ := ExportFiles([]string{fixture("spr.txt")}, reports.DefaultOptions())
	n := len(tab.Entries)
	tab.Merge(old)
	if len(tab.Entries) != n {
		t.Errorf("%d entries after merging a table of the same models and features, want %d", len(tab.Entries), n)
	}
	for _, e := range tab.Entries {
		if e.Choices[len(e.Choices)-1].Variant == "isa=generic" {
			t.Errorf("entry %s %s kept from the base instead of the measurements", e.Key(), e.Kernel)
		}
	}
}

func TestAssumeFeaturesRefuses(t *testing.T) {
	tests := []struct {
		key      string
		features []string
		want     string
	}{
		{"GenuineIntel/0x06/0xcf", []string{"avx2", "avx-512"}, "unknown [avx-512]"},
		{"GenuineIntel/0x06/0xcf", nil, "want known features"},
		{"GenuineIntel/6/0xcf", []string{"avx2"}, "no legacy entry has that dispatch key (legacy: GenuineIntel/0x06/0x8f, GenuineIntel/0x06/0xcf)"},
	}
	for _, tt := range tests {
		if err := legacyBase(t).AssumeFeatures(tt.key, tt.features); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("AssumeFeatures(%s, %v): %v, want an error containing %q", tt.key, tt.features, err, tt.want)
		}
	}
}

func TestValidateEntryFeatures(t *testing.T) {
	base := legacyBase(t)
	if err := base.Validate(); err != nil {
		t.Errorf("legacy entries should not be checked against features: %v", err)
	}
	base.AssumeFeatures("GenuineIntel/0x06/0xcf", zen4VMFixtureFeatures)
	err := base.Validate()
	if err == nil || !strings.Contains(err.Error(), `variant "isa=avx512vl/unroll=2/align=none" needs [avx512f avx512vl]`) {
		t.Errorf("Validate: %v, want a refusal of an AVX-512 variant in an entry measured without AVX-512", err)
	}
	bad := &Table{Entries: []Entry{
		{CPU: CPU{"AuthenticAMD", 0x19, 0x11}, Kernel: "test.fixed", Features: []string{"avx2", "avx10"}, Choices: []Choice{{0, "isa=generic"}}},
		{CPU: CPU{"AuthenticAMD", 0x19, 0x11}, Kernel: "test.fixed", Features: []string{"avx2", "avx10"}, Choices: []Choice{{0, "isa=generic"}}},
	}}
	err = bad.Validate()
	for _, want := range []string{"features [avx10] unknown to kernels/cpu", "duplicate entry for features [avx2,avx10]"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v, want %q", err, want)
		}
	}
}

func TestReadTableRefuses(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{
		"schema.json":  `{"schema": 2, "entries": []}`,
		"bad.json":     `{"schema": 1, "entries": [`,
		"feature.json": `{"schema": 1, "entries": [{"cpu": {"vendor": "v"}, "kernel": "k", "features": ["avx-512"]}]}`,
		"notatable.go": "package dispatch\n",
		"missing.json": "",
	} {
		path := filepath.Join(dir, name)
		if name != "missing.json" {
			os.WriteFile(path, []byte(content), 0o644)
		}
		if _, err := ReadTable(path); err == nil || !strings.Contains(err.Error(), "dispatch table") {
			t.Errorf("ReadTable(%s): %v, want an error about the dispatch table", name, err)
		}
	}
}
