package reports

import (
	"testing"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

func TestReadRounds(t *testing.T) {
	set, warnings, err := Read([]string{fixtures.RoundsFile(t, "0.8% (calib copies)")})
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
