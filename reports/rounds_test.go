package reports

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// roundsFile writes a sweep-shaped result file: one run in two segments
// (a resumed run), each announcing its rounds, with a layout-floor config
// line; rounds of test.sized size 64 are interleaved with a group whose
// round lines name another group.
func roundsFile(t *testing.T, floor string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# tunelab: segment 0000000000000abc 1\n")
	fmt.Fprintf(&b, "goos: linux\ngoarch: amd64\ncpu-vendor: AuthenticAMD\ncpu-family: 0x19\ncpu-model: 0x11\nuarch: Zen 4\ndispatch-key: AuthenticAMD/0x19/0x11\nfeatures: avx,avx2\nrun-id: 0000000000000abc\n")
	if floor != "" {
		fmt.Fprintf(&b, "layout-floor: %s\n", floor)
	}
	b.WriteString("kernel: test.sized\n")
	for seg := 1; seg <= 2; seg++ {
		if seg == 2 {
			b.WriteString("# tunelab: segment 0000000000000abc 2\n")
		}
		for n := 1; n <= 8; n++ {
			fmt.Fprintf(&b, "# tunelab: round test.sized/size=64 %d\n", n)
			fmt.Fprintf(&b, "BenchmarkTestSized/isa=scalar/size=64 1000 %d ns/op\n", 100+n%3)
			fmt.Fprintf(&b, "BenchmarkTestSized/isa=avx2/size=64 1000 %d ns/op\n", 90+n%3)
		}
	}
	b.WriteString("# tunelab: round test.sized/size=256 1\n")
	b.WriteString("BenchmarkTestSized/isa=scalar/size=64 1000 100 ns/op\n") // not the announced group: no round
	path := filepath.Join(t.TempDir(), "rounds.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestReadRounds(t *testing.T) {
	set, warnings, err := Read([]string{roundsFile(t, "0.8% (calib copies)")})
	if err != nil {
		t.Fatalf("Read: %v (warnings %v)", err, warnings)
	}
	var scalar, avx2 *Point
	for _, p := range set.Points {
		switch p.Variant {
		case "isa=scalar":
			scalar = p
		case "isa=avx2":
			avx2 = p
		}
	}
	if scalar == nil || avx2 == nil || len(scalar.Rounds) != len(scalar.NS) || len(scalar.NS) != 17 {
		t.Fatalf("points %v / %v: want 17 samples of isa=scalar with a round each", scalar, avx2)
	}
	if scalar.Rounds[0] != "0000000000000abc#1#1" || scalar.Rounds[8] != "0000000000000abc#2#1" || scalar.Rounds[16] != "" {
		t.Errorf("rounds %q: want run#segment#n per segment, and none for a result outside its announced group", scalar.Rounds)
	}
	if f := scalar.Model.LayoutFloor; f != 0.008 {
		t.Errorf("model layout floor %g, want 0.008 from the layout-floor config", f)
	}
	g := Analyze(set, DefaultOptions()).Groups[0]
	if d := g.Decision; !d.Delta.Paired || d.Delta.N != 16 || d.Winner != "isa=avx2" {
		t.Errorf("decision %+v: want isa=avx2, compared with isa=scalar over their 16 common rounds", d)
	}
}
