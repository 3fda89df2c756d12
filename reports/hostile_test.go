package reports

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/resultfile"
)

// writeFile writes data to a fresh file and returns its path.
func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// marked returns zen4.txt with a segment line after its header, as a
// sweep writes it.
func marked(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	return strings.Replace(s, "kernel: test.fixed\n", resultfile.CommentPrefix+"segment a1b2c3d4 1\nkernel: test.fixed\n", 1)
}

func samples(set *Set) int {
	n := 0
	for _, p := range set.Points {
		n += len(p.NS)
	}
	return n
}

func TestReadFileConcatenatedWithItself(t *testing.T) {
	one := writeFile(t, "one.txt", marked(t))
	two := writeFile(t, "two.txt", marked(t)+marked(t))
	a, _, err := Read([]string{one})
	if err != nil {
		t.Fatal(err)
	}
	b, warnings, err := Read([]string{two})
	if err != nil {
		t.Fatal(err)
	}
	if samples(a) != samples(b) {
		t.Errorf("file concatenated with itself: %d samples, want %d as in one copy", samples(b), samples(a))
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "duplicate run-id and segment") {
		t.Errorf("warnings %q, want one about the duplicate segment", warnings)
	}
	resumed := strings.Replace(marked(t), "kernel: test.sized\n", resultfile.CommentPrefix+"segment a1b2c3d4 2\nkernel: test.sized\n", 1)
	c, _, err := Read([]string{writeFile(t, "resumed.txt", resumed)})
	if err != nil || samples(c) != samples(a) {
		t.Errorf("a resumed file (segments 1 and 2 of one run): %v, %d samples, want all %d", err, samples(c), samples(a))
	}
}

func TestReadRefusesIdentityChangedMidRun(t *testing.T) {
	base := marked(t)
	i := strings.Index(base, "BenchmarkTestFixed/isa=avx2")
	cases := []struct{ name, insert, want string }{
		{"kernel", "kernel: test.sized\n", "kernel config test.sized, but the result is BenchmarkTestFixed"},
		{"dispatch key", "dispatch-key: GenuineIntel/0x06/0x8f\n", "dispatch-key changed from \"AuthenticAMD/0x19/0x11\""},
		{"features", "features: sse41\n", "features changed"},
		{"decision rule", "decision-rule: other\n", "decision-rule changed"},
	}
	for _, c := range cases {
		path := writeFile(t, "r.txt", base[:i]+c.insert+base[i:])
		_, _, err := Read([]string{path})
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), path+":") {
			t.Errorf("%s changed mid-run: error %v, want %s:LINE: ...%s...", c.name, err, path, c.want)
		}
	}
}

func TestEliminatedVariantNeverWins(t *testing.T) {
	base, _, err := Read([]string{fixture("zen4.txt")})
	if err != nil {
		t.Fatal(err)
	}
	winner := groupOf(t, Analyze(base, DefaultOptions()), "test.fixed", 0).Decision.Winner
	if winner == "" {
		t.Fatal("no winner in the fixture's test.fixed group")
	}
	data := marked(t) + resultfile.CommentPrefix + "eliminated test.fixed " + winner + " n=6 slower than rival\n"
	set, _, err := Read([]string{writeFile(t, "elim.txt", data)})
	if err != nil {
		t.Fatal(err)
	}
	g := groupOf(t, Analyze(set, DefaultOptions()), "test.fixed", 0)
	if g.Decision.Winner == winner || g.Decision.Winner == "" {
		t.Errorf("winner %q after the race eliminated %s, want another variant", g.Decision.Winner, winner)
	}
	if !strings.Contains(strings.Join(g.VerdictLines(), "\n"), "eliminated") {
		t.Errorf("verdict lines %q do not mention the eliminated variants", g.VerdictLines())
	}
}

func groupOf(t *testing.T, r *Report, kernel string, size int) *Group {
	t.Helper()
	g := r.FindGroup("AuthenticAMD/0x19/0x11", kernel, size)
	if g == nil {
		t.Fatalf("no group %s size %d", kernel, size)
	}
	return g
}

func TestPlainBenchmarkFileIsUnknownHost(t *testing.T) {
	var b strings.Builder
	b.WriteString("goos: linux\ngoarch: amd64\npkg: example.com/x\n")
	for i := 0; i < 10; i++ {
		b.WriteString("BenchmarkEncode/format=json-48 690848 1726 ns/op\nBenchmarkDecode-48 1000 52 ns/op\n")
	}
	path := writeFile(t, "plain.txt", b.String())
	set, warnings, err := Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "unknown host") {
		t.Errorf("warnings %q, want exactly one (per file) about the unknown host", warnings)
	}
	if len(set.Models) != 1 || !set.Models[0].Unknown || len(set.Points) != 2 {
		t.Fatalf("models %+v, %d points; want the unknown host and 2 points", set.Models, len(set.Points))
	}
	if _, _, err := ExportFiles([]string{path}, DefaultOptions()); err == nil || !strings.Contains(err.Error(), "unknown host") {
		t.Errorf("ExportFiles(plain file) error %v, want a refusal naming the unknown host", err)
	}
	tab, warnings, err := ExportFiles([]string{fixture("zen4.txt"), path}, DefaultOptions())
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

func TestOneModelTwoFeatureSetsStayApart(t *testing.T) {
	full := marked(t)
	vm := strings.NewReplacer("run-id: a1b2c3d4", "run-id: vm000001", "segment a1b2c3d4 1", "segment vm000001 1",
		"features: adx,aes,avx,avx2,avx512bw,avx512cd,avx512dq,avx512f,avx512vl,bmi1,bmi2,pclmulqdq,sse41",
		"features: adx,aes,avx,avx2,bmi1,bmi2,pclmulqdq,sse41").Replace(full)
	for _, order := range [][]string{{"full.txt", "vm.txt"}, {"vm.txt", "full.txt"}} {
		files := map[string]string{"full.txt": full, "vm.txt": vm}
		var paths []string
		for _, name := range order {
			paths = append(paths, writeFile(t, name, files[name]))
		}
		set, _, err := Read(paths)
		if err != nil {
			t.Fatal(err)
		}
		var tags []string
		for _, m := range set.Models {
			tags = append(tags, m.Label())
		}
		want := "Zen 4 (all features)|Zen 4 (without avx512bw,avx512cd,avx512dq,avx512f,avx512vl)"
		if got := strings.Join(tags, "|"); got != want {
			t.Errorf("files %v: models %q, want %q", order, got, want)
		}
	}
}

func TestForgedCopyOfASegmentIsRefused(t *testing.T) {
	orig := marked(t)
	forged := strings.Replace(orig, "BenchmarkTestFixed/isa=generic 100000 1000.54 ns/op", "BenchmarkTestFixed/isa=generic 100000 900.54 ns/op", 1)
	if forged == orig {
		t.Fatal("fixture line to forge not found")
	}
	a, b := writeFile(t, "a.txt", orig), writeFile(t, "b.txt", forged)
	for _, paths := range [][]string{{a, b}, {b, a}} {
		_, _, err := Read(paths)
		if err == nil || !strings.Contains(err.Error(), "with different results") {
			t.Errorf("Read(%v): %v, want a refusal of the differing copy", paths, err)
		}
	}
	if _, _, err := Read([]string{a, writeFile(t, "copy.txt", orig)}); err != nil {
		t.Errorf("an identical copy: %v, want it skipped", err)
	}
}

func TestForeignNonNumericSizeIsAName(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 6; i++ {
		b.WriteString("BenchmarkCRC32/poly=IEEE/size=1kB/align=0-8 1000 100 ns/op\n")
	}
	set, warnings, err := Read([]string{writeFile(t, "crc.txt", b.String())})
	if err != nil || len(set.Points) != 1 || set.Points[0].Variant != "poly=IEEE/size=1kB/align=0" || len(warnings) != 1 {
		t.Errorf("foreign size=1kB: %v, points %+v, warnings %q; want one point named with its size and one warning (unknown host)", err, set.Points, warnings)
	}
}
