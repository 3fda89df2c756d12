package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/reports/export"
	"github.com/tunelab/tunelab/reports/tablesrc"
)

func TestExportJSON(t *testing.T) {
	out, stderr, code := runCLI(t, "export", fixtures+"zen4.txt", fixtures+"spr.txt", "--format", "json")
	if code != 0 {
		t.Fatalf("tunelab export: exit %d, stderr %q", code, stderr)
	}
	golden(t, "export_json.golden", out)
}

func TestExportGo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ztable.go")
	_, stderr, code := runCLI(t, "export", "--format", "go", "-o", path, fixtures+"zen4.txt", fixtures+"spr.txt")
	if code != 0 {
		t.Fatalf("tunelab export: exit %d, stderr %q", code, stderr)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "export_go.golden", string(src))
}

// TestExportRefusesInvalid fabricates a Zen 4 without AVX-512 whose
// results crown an AVX-512 variant: export must refuse and leave the
// existing output untouched.
func TestExportRefusesInvalid(t *testing.T) {
	data, err := os.ReadFile(fixtures + "zen4.txt")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "noavx512.txt")
	s := strings.Replace(string(data), "avx512bw,avx512cd,avx512dq,avx512f,avx512vl,", "", 1)
	if err := os.WriteFile(in, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "ztable.go")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"go", "json"} {
		_, stderr, code := runCLI(t, "export", in, "--format", format, "-o", out)
		if code != 1 || !strings.Contains(stderr, `variant "isa=avx512vl" needs [avx512f avx512vl]`) {
			t.Errorf("export --format %s: exit %d, stderr %q; want a refusal naming isa=avx512vl", format, code, stderr)
		}
		if b, _ := os.ReadFile(out); string(b) != "old" {
			t.Errorf("export --format %s changed %s despite refusing", format, out)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files in %s after refusals, want 2 (no temp files)", len(entries), dir)
	}
	if _, _, code := runCLI(t, "export", in, "--format", "yaml"); code != 2 {
		t.Errorf("export --format yaml: exit %d, want 2", code)
	}
}

// writeLegacyTable writes a ztable.go as exported before entries recorded
// their features: a Sapphire Rapids entry for test.fixed.
func writeLegacyTable(t *testing.T, dir string) string {
	t.Helper()
	entries := []dispatch.Entry{{Vendor: cpu.VendorIntel, Family: 6, Model: 0x8f, Uarch: "Sapphire Rapids", Kernel: "test.fixed",
		Choices: []dispatch.Choice{{MaxSize: 0, Variant: "isa=avx512vl/unroll=1/align=none"}}}}
	src, err := tablesrc.FormatTable(entries, nil, []string{"sha256:0123 old sweep"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "ztable.go")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestExportBaseAssumeFeatures regenerates a legacy table in place with
// features assumed for its entries and merges a Zen 4 result file in.
func TestExportBaseAssumeFeatures(t *testing.T) {
	path := writeLegacyTable(t, t.TempDir())
	features := "sse41,avx,avx2,bmi1,bmi2,adx,aes,pclmulqdq,avx512f,avx512bw,avx512vl,avx512dq,avx512cd"
	_, stderr, code := runCLI(t, "export", "--format", "go", "-o", path, "--base", path,
		"--assume-features", "GenuineIntel/0x06/0x8f="+features, fixtures+"zen4.txt")
	if code != 0 {
		t.Fatalf("tunelab export: exit %d, stderr %q", code, stderr)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	tab, sources, err := tablesrc.ParseTable(src)
	if err != nil {
		t.Fatalf("regenerated table does not parse: %v\n%s", err, src)
	}
	keys := map[string]int{}
	for _, e := range tab.Entries {
		keys[cpu.DispatchKey(e.Vendor, e.Family, e.Model)]++
		if e.Legacy() || strings.Join(e.Features, ",") != features {
			t.Errorf("entry %s %s has features %q, want %s", e.Uarch, e.Kernel, e.Features, features)
		}
	}
	if keys["GenuineIntel/0x06/0x8f"] != 1 || keys["AuthenticAMD/0x19/0x11"] != 2 {
		t.Errorf("entries per model %v, want the base's one and the result file's two", keys)
	}
	if len(sources) != 2 || sources[0] != "sha256:0123 old sweep" {
		t.Errorf("sources %q, want the base's then the result file's", sources)
	}
	if len(tab.Defaults) == 0 {
		t.Errorf("no defaults: the base has none, so the result file's should be kept")
	}
}

// TestExportBaseLegacyKept checks that a base table's legacy entries are
// kept, with a warning, when no features are assumed for them.
func TestExportBaseLegacyKept(t *testing.T) {
	dir := t.TempDir()
	path := writeLegacyTable(t, dir)
	out, stderr, code := runCLI(t, "export", "--base", path)
	if code != 0 {
		t.Fatalf("tunelab export: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stderr, "warning: entries of GenuineIntel/0x06/0x8f have no recorded features; kept as legacy entries") {
		t.Errorf("stderr %q, want a warning about the legacy entries", stderr)
	}
	if !strings.Contains(out, `"features": []`) || !strings.Contains(out, `"sha256:0123 old sweep"`) {
		t.Errorf("JSON lacks the legacy entry or the base's source:\n%s", out)
	}
}

func TestExportBaseUsageErrors(t *testing.T) {
	path := writeLegacyTable(t, t.TempDir())
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"export"}, 2, "no result files or --base table given"},
		{[]string{"export", fixtures + "zen4.txt", "--assume-features", "GenuineIntel/0x06/0x8f=avx2"}, 2, "applies to a --base table"},
		{[]string{"export", "--base", path, "--assume-features", "GenuineIntel/0x06/0x8f"}, 2, "want KEY=f1,f2,..."},
		{[]string{"export", "--base", path, "--assume-features", "GenuineIntel/0x06/0x8f=avx-512"}, 1, "unknown [avx-512]"},
		{[]string{"export", "--base", path, "--assume-features", "AuthenticAMD/0x19/0x11=avx2"}, 1, "no legacy entry has that dispatch key"},
		{[]string{"export", "--base", path + ".missing"}, 1, "reading dispatch table"},
	}
	for _, tt := range tests {
		_, stderr, code := runCLI(t, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("tunelab %v: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.want)
		}
	}
}

// TestCompiledTableVariantsWithinFeatures checks that every variant the
// compiled table names is registered and, where an entry records its
// features, needs no feature beyond them (a default's: beyond its level
// and features).
func TestCompiledTableVariantsWithinFeatures(t *testing.T) {
	needCalibAsm(t)
	if err := export.FromDispatch(dispatch.Compiled(), nil).Validate(); err != nil {
		t.Errorf("compiled dispatch table (kernels/dispatch/ztable.go):\n%v", err)
	}
	// The check would catch an AVX-512 variant in an entry measured
	// without AVX-512.
	bad := dispatch.Table{Entries: []dispatch.Entry{{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Kernel: "test.fixed",
		Features: []string{"avx", "avx2"}, Choices: []dispatch.Choice{{MaxSize: 0, Variant: "isa=avx512vl/unroll=1/align=none"}}}}}
	if err := export.FromDispatch(bad, nil).Validate(); err == nil || !strings.Contains(err.Error(), "needs [avx512f avx512vl]") {
		t.Errorf("Validate of an AVX-512 variant in an AVX2 entry: %v, want a refusal", err)
	}
}
