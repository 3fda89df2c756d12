package reports

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness"
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
	r := Analyze(set, DefaultOptions())
	g := r.Groups[0]
	if d := g.Decision; !d.Delta.Paired || d.Delta.N != 16 || d.Winner != "isa=avx2" {
		t.Errorf("decision %+v: want isa=avx2, compared with isa=scalar over their 16 common rounds", d)
	}
	for name, write := range map[string]func(io.Writer) error{"text": r.WriteText, "markdown": r.WriteMarkdown, "html": r.WriteHTML} {
		var b strings.Builder
		if err := write(&b); err != nil || !strings.Contains(b.String(), "0.8% (calib copies") {
			t.Errorf("%s report (err %v) does not state the recorded layout floor", name, err)
		}
	}
}

// TestDecideArms checks the two-arm form of the rule the selftest
// judges with: an eliminated arm loses, a paired 3% difference wins, an
// A/A pair is a tie, and the layout floor turns a 3% win into a tie.
func TestDecideArms(t *testing.T) {
	arm := func(mean float64, seed uint64, n int) *harness.Arm {
		return &harness.Arm{Values: drifting(mean, n, seed)}
	}
	opt := DefaultOptions()
	if w, d := DecideArms([]*harness.Arm{arm(100, 2, 20), arm(103, 3, 20)}, opt, 0); w != 0 || d.Kind != Significant {
		t.Errorf("3%% slower b: winner %d (%+v), want a", w, d)
	}
	if w, d := DecideArms([]*harness.Arm{arm(103, 2, 20), arm(100, 3, 20)}, opt, 0); w != 1 || d.Kind != Significant {
		t.Errorf("3%% slower a: winner %d (%+v), want b", w, d)
	}
	if w, d := DecideArms([]*harness.Arm{arm(100, 2, 20), arm(100, 3, 20)}, opt, 0); w != -1 {
		t.Errorf("A/A: winner %d (%+v), want none", w, d)
	}
	if w, d := DecideArms([]*harness.Arm{arm(100, 2, 20), arm(103, 3, 20)}, opt, 0.05); w != -1 || !d.LayoutNoise {
		t.Errorf("3%% below a 5%% floor: winner %d (%+v), want a layout tie", w, d)
	}
	elim := arm(100, 3, 9)
	elim.Eliminated = true
	if w, d := DecideArms([]*harness.Arm{arm(100, 2, 20), elim}, opt, 0); w != 0 || d.Kind != Only {
		t.Errorf("b eliminated: winner %d (%+v), want a, the only candidate", w, d)
	}
}
