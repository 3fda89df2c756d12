package export

import (
	"encoding/json"
	"flag"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/reports"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := fixture(name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run go test -update to create): %v", err)
	}
	if string(got) != string(want) {
		t.Errorf("output differs from %s (run go test -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func TestExportJSON(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	table := FromReport(r)
	if err := table.Validate(); err != nil {
		t.Fatalf("Validate: %v", err)
	}
	data, err := table.JSON()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export.json", data)
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	checkKeys(t, "top level", doc, "schema", "generated_from", "entries", "defaults")
	entry := doc["entries"].([]any)[0].(map[string]any)
	checkKeys(t, "entry", entry, "cpu", "uarch", "kernel", "features", "choices", "evidence")
	checkKeys(t, "entry.cpu", entry["cpu"].(map[string]any), "vendor", "family", "model")
	checkKeys(t, "entry.evidence", entry["evidence"].(map[string]any), "samples", "median_ns", "ci", "margin", "p")
	checkKeys(t, "entry.choices[0]", entry["choices"].([]any)[0].(map[string]any), "max_size", "variant")
	checkKeys(t, "default", doc["defaults"].([]any)[0].(map[string]any), "features", "kernel", "choices")
	if got := doc["generated_from"].([]any); len(got) != 2 || !strings.HasPrefix(got[0].(string), "sha256:") {
		t.Errorf("generated_from = %v, want two sha256 digests", got)
	}
}

func checkKeys(t *testing.T, what string, m map[string]any, keys ...string) {
	t.Helper()
	var got []string
	for k := range m {
		got = append(got, k)
	}
	sort.Strings(got)
	sort.Strings(keys)
	if !reflect.DeepEqual(got, keys) {
		t.Errorf("%s keys = %v, want %v", what, got, keys)
	}
}

func TestExportGo(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	src, err := FromReport(r).GoSource()
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ztable.go.golden", src)
	if _, err := parser.ParseFile(token.NewFileSet(), "ztable.go", src, 0); err != nil {
		t.Errorf("generated Go does not parse: %v", err)
	}
	if !strings.HasPrefix(string(src), "// Code generated ") || !strings.Contains(string(src), "DO NOT EDIT.") {
		t.Errorf("generated Go lacks the Code generated header")
	}
}

func TestDefaults(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	byLevel := map[string]Default{}
	for _, d := range FromReport(r).Defaults {
		if d.Kernel == "test.sized" {
			byLevel[d.Level] = d
		}
	}
	// x86-64-v2 excludes bmi2 (a v3 feature): scalar everywhere.
	if d := byLevel["x86-64-v2"]; !reflect.DeepEqual(d.Choices, []Choice{{0, "isa=scalar"}}) {
		t.Errorf("v2 default %+v, want isa=scalar", d)
	}
	// v3: avx2 is the best geomean above 64 bytes on both models.
	if d := byLevel["x86-64-v3"]; !reflect.DeepEqual(d.Choices, []Choice{{64, "isa=scalar"}, {0, "isa=avx2"}}) {
		t.Errorf("v3 default %+v, want scalar ≤64, avx2 above", d)
	}
	for level, d := range byLevel {
		for _, c := range d.Choices {
			if miss := missing((&reports.Set{}).VariantFeatures("test.sized", c.Variant), d.Features); len(miss) > 0 {
				t.Errorf("%s default %s needs %v beyond its features %v", level, c.Variant, miss, d.Features)
			}
		}
	}
}

// TestLevelsMatchCPU checks the level feature lists against
// kernels/cpu.
func TestLevelsMatchCPU(t *testing.T) {
	for _, l := range levels {
		if got, _ := cpu.FeatureLevel(l.features); got != l.name {
			t.Errorf("cpu.FeatureLevel(%s features) = %s", l.name, got)
		}
	}
}

func TestValidateRefuses(t *testing.T) {
	data, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// A Zen 4 without AVX-512 whose measurements still crown avx512vl.
	noAVX512 := strings.Replace(string(data),
		"features: adx,aes,avx,avx2,avx512bw,avx512cd,avx512dq,avx512f,avx512vl,bmi1,bmi2,pclmulqdq,sse41",
		"features: adx,aes,avx,avx2,bmi1,bmi2,pclmulqdq,sse41", 1)
	path := filepath.Join(t.TempDir(), "noavx512.txt")
	os.WriteFile(path, []byte(noAVX512), 0o644)
	set, _, err := reports.Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	err = FromReport(reports.Analyze(set, reports.DefaultOptions())).Validate()
	if err == nil || !strings.Contains(err.Error(), `variant "isa=avx512vl" needs [avx512f avx512vl], which the CPU model lacks`) {
		t.Errorf("Validate: %v, want a refusal of isa=avx512vl on a model without AVX-512", err)
	}
	bad := &Table{Entries: []Entry{{CPU: CPU{"AuthenticAMD", 0x19, 0x11}, Kernel: "test.fixed",
		Choices: []Choice{{0, "isa=avx9/unroll=1"}}}, {CPU: CPU{"AuthenticAMD", 0x19, 0x11}, Kernel: "test.fixed",
		Choices: []Choice{{0, "ext=ref"}}}}}
	err = bad.Validate()
	for _, want := range []string{`variant "isa=avx9/unroll=1" is not registered`, `variant "ext=ref" is an external reference`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate: %v, want %q", err, want)
		}
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := WriteFileAtomic(path, []byte("one")); err != nil {
		t.Fatal(err)
	}
	if err := WriteFileAtomic(path, []byte("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "two" {
		t.Errorf("content %q, want two", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the directory, want 1 (no temp files left)", len(entries))
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}

func TestExportEmpty(t *testing.T) {
	// Three samples: no winner, so no entries and no defaults.
	path := filepath.Join(t.TempDir(), "few.txt")
	os.WriteFile(path, []byte("dispatch-key: AuthenticAMD/0x19/0x11\nkernel: test.fixed\n"+
		strings.Repeat("BenchmarkTestFixed/isa=generic 1 5 ns/op\n", 3)), 0o644)
	set, _, err := reports.Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	data, err := FromReport(reports.Analyze(set, reports.DefaultOptions())).JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"entries": []`) || !strings.Contains(string(data), `"defaults": []`) {
		t.Errorf("empty table JSON should have empty lists, not null:\n%s", data)
	}
}
