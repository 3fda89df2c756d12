package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
