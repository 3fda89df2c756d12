package harness

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/stats"
)

func TestLooks(t *testing.T) {
	p := DefaultRaceParams
	looks := p.Looks()
	if want := []int{9, 14, 21, 32, 48}; !slices.Equal(looks, want) {
		t.Errorf("DefaultRaceParams.Looks() = %v, want %v", looks, want)
	}
	if a := p.LookAlpha(); math.Abs(a-p.Alpha/float64(len(looks))) > 1e-15 {
		t.Errorf("LookAlpha() = %g, want Alpha/%d", a, len(looks))
	}
	if n := stats.MinPairs(p.LookAlpha()); n > looks[0] {
		t.Errorf("first look at %d rounds, but the signed-rank test needs %d to reject at %g", looks[0], n, p.LookAlpha())
	}
	if p.minSamples() != looks[0] {
		t.Errorf("minSamples() = %d, want the first look %d", p.minSamples(), looks[0])
	}
	few := RaceParams{Alpha: 0.02, MinSamples: 6, MaxSamples: 7}
	if l := few.Looks(); len(l) != 0 || few.minSamples() != 7 {
		t.Errorf("MaxSamples 7: looks %v, minSamples %d; want none and 7 (the final decision judges alone)", l, few.minSamples())
	}
	if !strings.Contains(p.String(), "looks=9,14,21,32,48") {
		t.Errorf("String() = %q, want the looks", p.String())
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
	n := DefaultRaceParams.Looks()[0]
	r := &Race{Params: DefaultRaceParams, Arms: []*Arm{
		synthArm("best", 100, 0.002, n, 1),
		synthArm("same", 100, 0.002, n, 2),   // A/A twin
		synthArm("near", 100.5, 0.002, n, 3), // significant, but within 1%
		synthArm("slow", 103, 0.002, n, 4),   // 3% slower
		synthArm("slower", 110, 0.002, n, 5), // 10% slower
		synthArm("noisy", 102, 0.2, n, 6),    // slower median, not significant
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

// TestRaceTestsOnlyAtLooks checks that an arm is tested only when its
// rounds in common with a rival are one of the looks: between looks a
// clearly slower arm stays, and the layout floor raises the margin.
func TestRaceTestsOnlyAtLooks(t *testing.T) {
	n := DefaultRaceParams.Looks()[0]
	r := &Race{Params: DefaultRaceParams, Arms: []*Arm{synthArm("best", 100, 0.002, n+1, 1), synthArm("slow", 103, 0.002, n+1, 2)}}
	if got := r.Eliminate(); len(got) != 0 {
		t.Errorf("%d rounds (not a look): Eliminate dropped %v", n+1, got)
	}
	p := DefaultRaceParams
	p.Floor = 0.05
	r = &Race{Params: p, Arms: []*Arm{synthArm("best", 100, 0.002, n, 1), synthArm("slow", 103, 0.002, n, 2)}}
	if got := r.Eliminate(); len(got) != 0 {
		t.Errorf("layout floor 5%%: a 3%% slower arm was eliminated (%s)", r.Arms[1].Reason)
	}
}

// TestRacePairsByRound checks that arms are compared over the rounds
// they share: a drift common to both arms of a round cancels, so A/A
// twins under heavy drift stay, and a 3% slower arm under the same drift
// goes.
func TestRacePairsByRound(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	n := DefaultRaceParams.Looks()[0]
	arms := []*Arm{{Label: "a"}, {Label: "twin"}, {Label: "slow"}}
	means := []float64{100, 100, 103}
	for round := range n {
		drift := 1 + 0.3*rng.Float64() // the host's load changes between rounds
		for i, a := range arms {
			a.Values = append(a.Values, means[i]*drift*(1+0.002*rng.NormFloat64()))
			a.Rounds = append(a.Rounds, int64(100+round))
		}
	}
	r := &Race{Params: DefaultRaceParams, Arms: arms}
	r.Eliminate()
	if arms[0].Eliminated || arms[1].Eliminated || !arms[2].Eliminated {
		t.Errorf("under drift: eliminated a=%v twin=%v slow=%v; want only slow (%s)", arms[0].Eliminated, arms[1].Eliminated, arms[2].Eliminated, arms[2].Reason)
	}
	x, y := Pairs(arms[0], &Arm{Values: []float64{1, 2}, Rounds: []int64{999, 100}})
	if len(x) != 1 || x[0] != arms[0].Values[0] || y[0] != 2 {
		t.Errorf("Pairs over rounds {100..} and {999, 100}: %v, %v; want the round-100 pair only", x, y)
	}
}

// TestRaceAAFalsePositives races many synthetic A/A pairs to the end
// (drift, heavy-tailed disturbances, fixed seed) and checks that the
// looks together eliminate at most about Alpha of them.
func TestRaceAAFalsePositives(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	p := DefaultRaceParams
	p.Threshold = 0 // the threshold would hide the test's own error rate
	const races = 1000
	positives := 0
	for range races {
		r := &Race{Params: p, Arms: []*Arm{{Label: "a"}, {Label: "b"}}}
		for round := 0; round < p.MaxSamples; round++ {
			if len(r.Eliminate()) > 0 {
				positives++
				break
			}
			drift := 1 + 0.1*math.Sin(float64(round)/5)
			for _, i := range RoundOrder(rng, r.Live()) {
				v := 100 * drift * (1 + 0.01*rng.NormFloat64())
				if rng.IntN(3) == 0 {
					v *= 1 + 0.05*rng.ExpFloat64()
				}
				r.Arms[i].Values = append(r.Arms[i].Values, v)
			}
		}
	}
	// Bonferroni bounds the rate by Alpha = 2%; binomial sd at 1000 is 0.44%.
	if rate := float64(positives) / races; rate > p.Alpha+0.01 {
		t.Errorf("A/A: %d of %d races eliminated an arm (%.1f%%), want at most about %g%%", positives, races, 100*rate, 100*p.Alpha)
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
	r.Arms[1].Eliminated = true // one live arm left
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
	n := DefaultRaceParams.Looks()[0]
	ref := synthArm("ext=ref", 150, 0.05, n, 2)
	ref.Keep = true
	r := &Race{Params: DefaultRaceParams, Arms: []*Arm{
		synthArm("best", 100, 0.002, n, 1),
		ref,
		synthArm("slower", 130, 0.002, n, 3),
	}}
	r.Eliminate()
	if ref.Eliminated || !r.Arms[2].Eliminated {
		t.Fatalf("eliminated: reference %v (want false), slower candidate %v (want true)", ref.Eliminated, r.Arms[2].Eliminated)
	}
	if done, why := r.Done(); done {
		t.Errorf("race done (%s) while the kept reference's median is known only to ±5%%", why)
	}
	r.Arms[0].Values = synthArm("best", 100, 0.001, 40, 5).Values
	ref.Values = synthArm("ext=ref", 150, 0.001, 40, 4).Values
	if done, why := r.Done(); !done || why != "settled" {
		t.Errorf("Done() = %v, %q once every live arm settled, want true, settled", done, why)
	}
}
