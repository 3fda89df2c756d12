package reports

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

func samples(set *Set) int {
	n := 0
	for _, p := range set.Points {
		n += len(p.NS)
	}
	return n
}

func TestReadFileConcatenatedWithItself(t *testing.T) {
	one := fixtures.WriteFile(t, "one.txt", fixtures.Marked(t))
	two := fixtures.WriteFile(t, "two.txt", fixtures.Marked(t)+fixtures.Marked(t))
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
	resumed := strings.Replace(fixtures.Marked(t), "kernel: test.sized\n", resultfile.CommentPrefix+"segment a1b2c3d4 2\nkernel: test.sized\n", 1)
	c, _, err := Read([]string{fixtures.WriteFile(t, "resumed.txt", resumed)})
	if err != nil || samples(c) != samples(a) {
		t.Errorf("a resumed file (segments 1 and 2 of one run): %v, %d samples, want all %d", err, samples(c), samples(a))
	}
}

func TestReadRefusesIdentityChangedMidRun(t *testing.T) {
	base := fixtures.Marked(t)
	i := strings.Index(base, "BenchmarkTestFixed/isa=avx2")
	cases := []struct{ name, insert, want string }{
		{"kernel", "kernel: test.sized\n", "kernel config test.sized, but the result is BenchmarkTestFixed"},
		{"dispatch key", "dispatch-key: GenuineIntel/0x06/0x8f\n", "dispatch-key changed from \"AuthenticAMD/0x19/0x11\""},
		{"features", "features: sse41\n", "features changed"},
		{"decision rule", "decision-rule: other\n", "decision-rule changed"},
	}
	for _, c := range cases {
		path := fixtures.WriteFile(t, "r.txt", base[:i]+c.insert+base[i:])
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
	data := fixtures.Marked(t) + resultfile.CommentPrefix + "eliminated test.fixed " + winner + " n=6 slower than rival\n"
	set, _, err := Read([]string{fixtures.WriteFile(t, "elim.txt", data)})
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

func TestOneModelTwoFeatureSetsStayApart(t *testing.T) {
	full := fixtures.Marked(t)
	vm := strings.NewReplacer("run-id: a1b2c3d4", "run-id: vm000001", "segment a1b2c3d4 1", "segment vm000001 1",
		"features: adx,aes,avx,avx2,avx512bw,avx512cd,avx512dq,avx512f,avx512vl,bmi1,bmi2,pclmulqdq,sse41",
		"features: adx,aes,avx,avx2,bmi1,bmi2,pclmulqdq,sse41").Replace(full)
	for _, order := range [][]string{{"full.txt", "vm.txt"}, {"vm.txt", "full.txt"}} {
		files := map[string]string{"full.txt": full, "vm.txt": vm}
		var paths []string
		for _, name := range order {
			paths = append(paths, fixtures.WriteFile(t, name, files[name]))
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
	orig := fixtures.Marked(t)
	forged := strings.Replace(orig, "BenchmarkTestFixed/isa=generic 100000 1000.54 ns/op", "BenchmarkTestFixed/isa=generic 100000 900.54 ns/op", 1)
	if forged == orig {
		t.Fatal("fixture line to forge not found")
	}
	a, b := fixtures.WriteFile(t, "a.txt", orig), fixtures.WriteFile(t, "b.txt", forged)
	for _, paths := range [][]string{{a, b}, {b, a}} {
		_, _, err := Read(paths)
		if err == nil || !strings.Contains(err.Error(), "with different results") {
			t.Errorf("Read(%v): %v, want a refusal of the differing copy", paths, err)
		}
	}
	if _, _, err := Read([]string{a, fixtures.WriteFile(t, "copy.txt", orig)}); err != nil {
		t.Errorf("an identical copy: %v, want it skipped", err)
	}
}

func TestForeignNonNumericSizeIsAName(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 6; i++ {
		b.WriteString("BenchmarkCRC32/poly=IEEE/size=1kB/align=0-8 1000 100 ns/op\n")
	}
	set, warnings, err := Read([]string{fixtures.WriteFile(t, "crc.txt", b.String())})
	if err != nil || len(set.Points) != 1 || set.Points[0].Variant != "poly=IEEE/size=1kB/align=0" || len(warnings) != 1 {
		t.Errorf("foreign size=1kB: %v, points %+v, warnings %q; want one point named with its size and one warning (unknown host)", err, set.Points, warnings)
	}
}
