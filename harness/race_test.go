package harness

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"golang.org/x/perf/benchmath"
)

func TestMinSamplesForMatchesBenchmath(t *testing.T) {
	n := MinSamplesFor(0.05)
	vals := func(k int) []float64 {
		v := make([]float64, k)
		for i := range v {
			v[i] = float64(i)
		}
		return v
	}
	at := benchmath.AssumeNothing.Summary(benchmath.NewSample(vals(n), &benchmath.DefaultThresholds), confidence)
	if math.IsInf(at.Lo, 0) || math.IsInf(at.Hi, 0) {
		t.Errorf("MinSamplesFor(0.05) = %d, but benchmath gives no finite 95%% interval at n=%d", n, n)
	}
	below := benchmath.AssumeNothing.Summary(benchmath.NewSample(vals(n-1), &benchmath.DefaultThresholds), confidence)
	if !math.IsInf(below.Lo, 0) && !math.IsInf(below.Hi, 0) && n > 4 {
		t.Errorf("MinSamplesFor(0.05) = %d, but n=%d already gives a finite interval", n, n-1)
	}
	if p := (RaceParams{MinSamples: 1, Alpha: 0.05}).minSamples(); p != n {
		t.Errorf("RaceParams{MinSamples: 1}.minSamples() = %d, want benchmath's %d", p, n)
	}
}

// synthArm returns an arm with n samples of mean·(1+noise·N(0,1)) from a
// fixed seed.
func synthArm(label string, mean, noise float64, n int, seed uint64) *Arm {
	rng := rand.New(rand.NewPCG(seed, seed+1))
	a := &Arm{Label: label}
	for i := 0; i < n; i++ {
		a.Values = append(a.Values, mean*(1+noise*rng.NormFloat64()))
		a.WallNs += 1000
	}
	return a
}

func TestRaceEliminatesOnlySignificantlySlowerBeyondThreshold(t *testing.T) {
	r := &Race{Params: DefaultRaceParams, Arms: []*Arm{
		synthArm("best", 100, 0.002, 8, 1),
		synthArm("same", 100, 0.002, 8, 2),   // A/A twin
		synthArm("near", 100.5, 0.002, 8, 3), // significant, but within 1%
		synthArm("slow", 103, 0.002, 8, 4),   // 3% slower
		synthArm("slower", 110, 0.002, 8, 5), // 10% slower
		synthArm("noisy", 102, 0.2, 8, 6),    // slower median, not significant
	}}
	got := r.Eliminate()
	var names []string
	for _, i := range got {
		names = append(names, r.Arms[i].Label)
	}
	if want := []string{"slow", "slower"}; !slices.Equal(names, want) {
		t.Fatalf("Eliminate() dropped %v, want %v", names, want)
	}
	for _, i := range got {
		if !strings.Contains(r.Arms[i].Reason, "vs ") || !strings.Contains(r.Arms[i].Reason, "p=") {
			t.Errorf("arm %s: reason %q does not name the faster arm and the p-value", r.Arms[i].Label, r.Arms[i].Reason)
		}
	}
	if len(r.Live()) != 4 {
		t.Errorf("%d live arms after elimination, want 4", len(r.Live()))
	}
}

func TestRaceWaitsForMinSamples(t *testing.T) {
	min := DefaultRaceParams.minSamples()
	r := &Race{Params: DefaultRaceParams, Arms: []*Arm{
		synthArm("best", 100, 0.001, min-1, 1),
		synthArm("slow", 150, 0.001, min-1, 2),
	}}
	if got := r.Eliminate(); len(got) != 0 {
		t.Errorf("with %d samples per arm (< %d) Eliminate dropped %v", min-1, min, got)
	}
	if done, why := r.Done(); done {
		t.Errorf("race done (%s) before min samples", why)
	}
}

func TestRaceDone(t *testing.T) {
	p := DefaultRaceParams
	min := p.minSamples()
	for _, c := range []struct {
		name string
		arms []*Arm
		want string
	}{
		{"tight A/A settles", []*Arm{synthArm("a", 100, 0.0005, min, 1), synthArm("b", 100, 0.0005, min, 2)}, "settled"},
		{"noisy stays open", []*Arm{synthArm("a", 100, 0.05, min, 1), synthArm("b", 100, 0.05, min, 2)}, ""},
		{"max samples", []*Arm{synthArm("a", 100, 0.05, p.MaxSamples, 1), synthArm("b", 100, 0.05, p.MaxSamples, 2)}, "max samples"},
	} {
		r := &Race{Params: p, Arms: c.arms}
		done, why := r.Done()
		if why != c.want || done != (c.want != "") {
			t.Errorf("%s: Done() = %v, %q; want %q", c.name, done, why, c.want)
		}
	}
	r := &Race{Params: p, Arms: []*Arm{synthArm("a", 100, 0.05, min, 1), synthArm("b", 200, 0.05, min, 2)}}
	r.Arms[1].Eliminated = true
	if done, why := r.Done(); !done || why != "one arm left" {
		t.Errorf("one live arm: Done() = %v, %q; want one arm left", done, why)
	}
}

func TestRaceSaved(t *testing.T) {
	r := &Race{Params: DefaultRaceParams, Arms: []*Arm{synthArm("a", 100, 0.01, 20, 1), synthArm("b", 200, 0.01, 6, 2)}}
	r.Arms[1].Eliminated = true
	saved, spent := r.Saved()
	// b ran 6 samples of 1000 ns; a ran 20: racing saved b's 14 missing ones.
	if saved != 14*1000 || spent != 26*1000 {
		t.Errorf("Saved() = %d, %d; want 14000, 26000", saved, spent)
	}
}

// TestRacingOnSyntheticStreams drives a full race sample by sample and
// checks the planted slow arm goes, the A/A twins stay.
func TestRacingOnSyntheticStreams(t *testing.T) {
	means := []float64{100, 100, 101.8, 104}
	rng := rand.New(rand.NewPCG(3, 4))
	r := &Race{Params: DefaultRaceParams}
	for i := range means {
		r.Arms = append(r.Arms, &Arm{Label: string(rune('a' + i))})
	}
	for round := 0; round < 200; round++ {
		r.Eliminate()
		if done, _ := r.Done(); done {
			break
		}
		for _, i := range RoundOrder(rng, r.Live()) {
			r.Arms[i].Values = append(r.Arms[i].Values, means[i]*(1+0.003*rng.NormFloat64()))
		}
	}
	for i, a := range r.Arms {
		wantOut := means[i] > 101
		if a.Eliminated != wantOut {
			t.Errorf("arm %s (mean %v): eliminated=%v after %d samples, want %v (%s)", a.Label, means[i], a.Eliminated, len(a.Values), wantOut, a.Reason)
		}
	}
}

// TestKeptReferenceStaysInTheRace checks that a kept reference (ext=) is
// never eliminated however much slower it is, and that a race with one
// candidate left goes on while the reference's median is unsettled.
func TestKeptReferenceStaysInTheRace(t *testing.T) {
	ref := synthArm("ext=ref", 150, 0.05, 8, 2)
	ref.Keep = true
	r := &Race{Params: DefaultRaceParams, Arms: []*Arm{
		synthArm("best", 100, 0.002, 8, 1),
		ref,
		synthArm("slower", 130, 0.002, 8, 3),
	}}
	r.Eliminate()
	if ref.Eliminated || !r.Arms[2].Eliminated {
		t.Fatalf("eliminated: reference %v (want false), slower candidate %v (want true)", ref.Eliminated, r.Arms[2].Eliminated)
	}
	if done, why := r.Done(); done {
		t.Errorf("race done (%s) while the kept reference's median is known only to ±5%%", why)
	}
	ref.Values = synthArm("ext=ref", 150, 0.001, 40, 4).Values
	if done, why := r.Done(); !done || why != "settled" {
		t.Errorf("Done() = %v, %q once every live arm settled, want true, settled", done, why)
	}
}
