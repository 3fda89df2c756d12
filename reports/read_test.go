package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadMergesTwoMachines(t *testing.T) {
	r, warnings := load(t, "zen4.txt", "spr.txt")
	if len(warnings) != 0 {
		t.Errorf("unexpected warnings: %q", warnings)
	}
	if len(r.Set.Models) != 2 {
		t.Fatalf("got %d models, want 2 (Zen 4, Sapphire Rapids)", len(r.Set.Models))
	}
	m := r.Set.Models[0]
	if m.Key != "AuthenticAMD/0x19/0x11" || m.Uarch != "Zen 4" || m.Family != 0x19 || m.Model != 0x11 || m.Vendor != "AuthenticAMD" {
		t.Errorf("model 0 = %+v, want AuthenticAMD/0x19/0x11 Zen 4", m)
	}
	if !m.Has([]string{"avx512f", "avx2"}) || m.Has([]string{"vaes"}) {
		t.Errorf("model %s features %v parsed wrong", m.Label(), m.Features)
	}
	for _, p := range r.Set.Points {
		if p.Variant == "isa=generic" && p.Kernel == "test.fixed" && (len(p.NS) != 10 || len(p.TSC) != 10) {
			t.Errorf("%s %s %s: %d ns and %d tsc samples, want 10", p.Model.Label(), p.Kernel, p.Variant, len(p.NS), len(p.TSC))
		}
	}
}

func TestReadDuplicateRunCountedOnce(t *testing.T) {
	r, warnings := load(t, "zen4.txt", "zen4.txt")
	for _, p := range r.Set.Points {
		want := 10
		if p.Kernel == "test.sized" && p.Size == 4096 && p.Variant == "isa=avx512vl" {
			want = 4
		}
		if len(p.NS) != want {
			t.Errorf("%s %s size %d: %d samples after reading the same run twice, want %d", p.Kernel, p.Variant, p.Size, len(p.NS), want)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "duplicate run-id") {
		t.Errorf("warnings = %q, want one about a duplicate run-id", warnings)
	}
}

func TestReadDuplicateRunInOneFile(t *testing.T) {
	data, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// A run, another run, then the first run again (concatenated files).
	other := strings.Replace(string(data), "run-id: a1b2c3d4", "run-id: 0000beef", 1)
	path := filepath.Join(t.TempDir(), "cat.txt")
	if err := os.WriteFile(path, []byte(string(data)+other+string(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	set, _, err := Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.Points {
		if p.Variant == "isa=generic" && len(p.NS) != 20 {
			t.Errorf("%s %s size %d: %d samples, want 20 (two distinct runs)", p.Kernel, p.Variant, p.Size, len(p.NS))
		}
	}
}

func TestReadMalformedLines(t *testing.T) {
	set, warnings, err := Read([]string{fixture("bad.txt")})
	if err != nil {
		t.Fatalf("Read(bad.txt): %v", err)
	}
	want := map[int]string{
		25: "",
		26: "",
		27: "expected a ns/op value",
		28: "expected key=value",
		29: "expected an integer size between 1 and 1073741824, got size=big",
	}
	for line, what := range want {
		prefix := fmt.Sprintf("%s:%d: ", fixture("bad.txt"), line)
		found := false
		for _, w := range warnings {
			if strings.HasPrefix(w, prefix) && strings.Contains(w, what) {
				found = true
			}
		}
		if !found {
			t.Errorf("no warning %q...%q for line %d; warnings: %q", prefix, what, line, warnings)
		}
	}
	if len(set.Points) != 1 || len(set.Points[0].NS) != 6 {
		t.Errorf("kept %d points, want only isa=generic with 6 samples", len(set.Points))
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	noKernel := filepath.Join(dir, "nokernel.txt")
	os.WriteFile(noKernel, []byte("dispatch-key: AuthenticAMD/0x19/0x11\nrun-id: r1\nBenchmarkX/isa=generic 1 5 ns/op\n"), 0o644)
	cases := []struct{ path, want string }{
		{fixture("empty.txt"), "no benchmark results"},
		{filepath.Join(dir, "missing.txt"), "no such file"},
		{noKernel, "no usable benchmark results"},
	}
	for _, c := range cases {
		_, warnings, err := Read([]string{fixture("zen4.txt"), c.path})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Read(%s): error %v, want one containing %q", c.path, err, c.want)
		}
		if c.path == noKernel && (len(warnings) != 1 || !strings.Contains(warnings[0], "nokernel.txt:3: expected a \"kernel:\" config line")) {
			t.Errorf("Read(%s): warnings %q, want one at line 3 about the kernel config", c.path, warnings)
		}
	}
	if _, _, err := Read(nil); err == nil {
		t.Error("Read(nil) succeeded, want an error")
	}
}

func TestReadLeavesOutColdEntryResults(t *testing.T) {
	warm, err := os.ReadFile(filepath.Join("testdata", "zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cold := "\nrun-id: cold-run\nalign-entry: cold\nkernel: test.fixed\nBenchmarkTestFixed/isa=generic 1 1 ns/op\n"
	path := filepath.Join(t.TempDir(), "mixed.txt")
	if err := os.WriteFile(path, append(warm, cold...), 0o644); err != nil {
		t.Fatal(err)
	}
	set, warnings, err := Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set.Points {
		for _, ns := range p.NS {
			if ns == 1 {
				t.Errorf("%s %s: a cold-entry sample was mixed into steady-state results", p.Kernel, p.Variant)
			}
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "cold-entry") {
		t.Errorf("warnings = %q, want one about cold-entry results", warnings)
	}
}
