package align

import (
	"math"
	"strings"
	"testing"
)

func TestSensitivityFindsPlantedEffect(t *testing.T) {
	// Offset 36 is 5% slower, offset 8 is 2% faster than the rest.
	at := func(o int) float64 {
		switch o {
		case 36:
			return 105
		case 8:
			return 98
		}
		return 100
	}
	a := Analyze(synthetic(sweep16, at, 100, 60, 0.005, 1))
	s := a.Sens
	if s == nil {
		t.Fatal("no sensitivity computed for 16 offsets")
	}
	if s.Slowest != "36" || s.Fastest != "8" {
		t.Errorf("slowest/fastest = %s/%s, want 36/8", s.Slowest, s.Fastest)
	}
	if want := 105.0 / 98; math.Abs(s.Ratio-want) > 0.005 {
		t.Errorf("ratio %.4f, want about %.4f", s.Ratio, want)
	}
	if !(s.Lo <= s.Ratio && s.Ratio <= s.Hi) || s.Lo < 1 {
		t.Errorf("interval [%.4f, %.4f] does not hold ratio %.4f (or is below 1)", s.Lo, s.Hi, s.Ratio)
	}
	if truth := 105.0 / 98; !(s.Lo <= truth && truth <= s.Hi) {
		t.Errorf("interval [%.4f, %.4f] misses the true ratio %.4f", s.Lo, s.Hi, truth)
	}
	if !s.Significant {
		t.Errorf("a 7%% planted effect with 0.5%% noise is not significant: [%.4f, %.4f]", s.Lo, s.Hi)
	}
	if want := 1 - 0.05/16; math.Abs(s.PerOffsetConf-want) > 1e-12 {
		t.Errorf("per-offset confidence %v, want %v", s.PerOffsetConf, want)
	}
}

func TestSensitivityNullNotSignificant(t *testing.T) {
	// Every placement has the same distribution: the point ratio is above
	// 1 by selection, but the simultaneous interval must include 1.
	for seed := uint64(1); seed <= 20; seed++ {
		a := Analyze(synthetic(sweep16, func(int) float64 { return 100 }, 0, 40, 0.02, seed))
		s := a.Sens
		if s.Ratio <= 1 {
			t.Errorf("seed %d: ratio %.4f, want > 1 (max over min median)", seed, s.Ratio)
		}
		if s.Significant || s.Lo != 1 {
			t.Errorf("seed %d: null placement effect reported significant: %.4f [%.4f, %.4f]", seed, s.Ratio, s.Lo, s.Hi)
		}
	}
}

func TestSensitivityTooFewSamples(t *testing.T) {
	a := Analyze(synthetic(sweep16, func(o int) float64 { return 100 + float64(o) }, 0, 5, 0.001, 3))
	s := a.Sens
	if !math.IsInf(s.Hi, 1) || s.Significant || len(s.InsufficientNotes) == 0 {
		t.Errorf("5 samples per offset: got [%v, %v] significant=%v notes=%v; want +inf upper bound, not significant, notes",
			s.Lo, s.Hi, s.Significant, s.InsufficientNotes)
	}
}

func TestSensitivityNeedsTwoOffsets(t *testing.T) {
	a := Analyze(synthetic([]int{0}, func(int) float64 { return 100 }, 0, 20, 0.01, 1))
	if a.Sens != nil {
		t.Errorf("sensitivity computed from one offset: %+v", a.Sens)
	}
	if !strings.Contains(a.Findings()[0], "not computed") {
		t.Errorf("finding %q does not say the sensitivity was not computed", a.Findings()[0])
	}
}

func TestAlignedVersusNone(t *testing.T) {
	for _, c := range []struct {
		none    float64
		verdict string
	}{
		{103, "align=64 significantly faster"},
		{97, "align=64 significantly slower"},
		{100, "no significant difference"},
	} {
		a := Analyze(synthetic([]int{0, 4}, func(int) float64 { return 100 }, c.none, 50, 0.005, 7))
		v := a.Versus
		if v == nil {
			t.Fatalf("none=%v: no comparison", c.none)
		}
		if got := v.Verdict(); got != c.verdict {
			t.Errorf("none=%v: verdict %q (delta %.4f, p %.3g), want %q", c.none, got, v.Delta, v.P, c.verdict)
		}
		if want := (100 - c.none) / c.none; math.Abs(v.Delta-want) > 0.004 {
			t.Errorf("none=%v: delta %.4f, want about %.4f", c.none, v.Delta, want)
		}
		if v.N1 != 50 || v.N2 != 50 {
			t.Errorf("none=%v: n = %d+%d, want 50+50", c.none, v.N1, v.N2)
		}
	}
}

func TestAnalyzeMismatchAndExclusion(t *testing.T) {
	m := synthetic([]int{0, 4, 8}, func(int) float64 { return 100 }, 100, 20, 0.01, 1)
	m.Set.Arms[1].Place.Offset = 6
	m.Set.Arms[2].Place = Placement{Err: "no .s file"}
	m.Excluded[3], m.Samples[3] = "verification failed: boom", Samples{}
	a := Analyze(m)
	if len(a.Mismatches) != 2 || !strings.Contains(a.Mismatches[0], "offset 6, requested 4") ||
		!strings.Contains(a.Mismatches[1], "not located") {
		t.Errorf("mismatches = %q, want offset 6 vs 4 and a not-located arm", a.Mismatches)
	}
	if a.None == nil || a.None.N != 0 || a.None.Excluded != "verification failed: boom" {
		t.Errorf("excluded align=none point = %+v", a.None)
	}
	if a.Versus != nil {
		t.Errorf("compared against an excluded align=none arm: %+v", a.Versus)
	}
}
