package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSignedRankKnown checks the exact p-value against R's
// wilcox.test(x, y, paired = TRUE) on its documented example (depression
// scores, Hollander & Wolfe): V = 40, p = 0.03906.
func TestSignedRankKnown(t *testing.T) {
	x := []float64{1.83, 0.50, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.30}
	y := []float64{0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29}
	d := make([]float64, len(x))
	for i := range x {
		d[i] = x[i] - y[i]
	}
	if p := SignedRankP(d); math.Abs(p-0.0390625) > 1e-9 {
		t.Errorf("SignedRankP(Hollander-Wolfe) = %.7f, want 0.0390625 (R: V = 40, p-value = 0.03906)", p)
	}
	ranks, pos := signedRanks(d)
	if pos != 2*40 || len(ranks) != 9 {
		t.Errorf("signedRanks: W+ (doubled) = %d over %d ranks, want 80 over 9", pos, len(ranks))
	}
}

func TestSignedRankExtremes(t *testing.T) {
	for n := 1; n <= 12; n++ {
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(i + 1)
		}
		want := math.Min(1, 2*math.Pow(2, -float64(n)))
		if p := SignedRankP(d); math.Abs(p-want) > 1e-12 {
			t.Errorf("n=%d all positive: p = %g, want 2·2^-n = %g", n, p, want)
		}
		for i := range d {
			d[i] = -d[i]
		}
		if p := SignedRankP(d); math.Abs(p-want) > 1e-12 {
			t.Errorf("n=%d all negative: p = %g, want %g", n, p, want)
		}
	}
	if p := SignedRankP([]float64{0, 0, 0}); p != 1 {
		t.Errorf("all zeros: p = %g, want 1", p)
	}
	// Ties share midranks: |d| = 1,1,2 -> ranks 1.5,1.5,3; W+ = 4.5 of 6.
	ranks, pos := signedRanks([]float64{1, -1, 2})
	if ranks[0] != 3 || ranks[1] != 3 || ranks[2] != 6 || pos != 9 {
		t.Errorf("doubled midranks of {1,-1,2}: %v, W+ %d; want [3 3 6], 9", ranks, pos)
	}
}

// TestSignedRankSize checks on symmetric synthetic differences (fixed
// seed) that the test rejects at most about alpha of the time, drift or
// not: a per-round drift common to both arms cancels in the ratio.
func TestSignedRankSize(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const reps, n = 4000, 20
	rejected := 0
	for range reps {
		a, b := make([]float64, n), make([]float64, n)
		for i := range n {
			drift := 1 + 0.2*math.Sin(float64(i)/3) // slow drift, both arms
			a[i] = 100 * drift * math.Exp(0.02*rng.NormFloat64())
			b[i] = 100 * drift * math.Exp(0.02*rng.NormFloat64())
		}
		if ComparePaired(a, b, 0.95).P < 0.05 {
			rejected++
		}
	}
	// Exact test: the rate is at most 5% plus Monte Carlo error
	// (binomial sd 0.34% at 4000 reps).
	if rate := float64(rejected) / reps; rate > 0.06 || rate < 0.03 {
		t.Errorf("signed-rank test rejected %d of %d null comparisons (%.2f%%), want about 5%%", rejected, reps, 100*rate)
	}
}

// TestPairedDetects checks power and the estimate on a planted 2% effect
// with 1.5% per-sample noise and one sample in five slowed by a
// disturbance (exponential, mean 2%: cache refills after a preemption).
func TestPairedDetects(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const reps, n = 500, 30
	detected, covered := 0, 0
	for range reps {
		a, b := make([]float64, n), make([]float64, n)
		for i := range n {
			a[i] = 100 * math.Exp(0.015*rng.NormFloat64())
			b[i] = 102 * math.Exp(0.015*rng.NormFloat64())
			if rng.IntN(5) == 0 { // one sample in five disturbed, either arm
				if rng.IntN(2) == 0 {
					a[i] *= 1 + rng.ExpFloat64()*0.02
				} else {
					b[i] *= 1 + rng.ExpFloat64()*0.02
				}
			}
		}
		p := ComparePaired(a, b, 0.95)
		if p.Significant(0.02, 0.01) {
			detected++
		}
		if p.Lo <= 0.02 && 0.02 <= p.Hi {
			covered++
		}
	}
	if detected < reps*95/100 {
		t.Errorf("planted 2%%: detected %d of %d at alpha 0.02, threshold 1%%; want at least 95%%", detected, reps)
	}
	if covered < reps*90/100 {
		t.Errorf("planted 2%%: the 95%% interval covered the true ratio in %d of %d comparisons; want about 95%%", covered, reps)
	}
}

func TestHodgesLehmann(t *testing.T) {
	est, lo, hi := HodgesLehmann([]float64{1, 2, 3}, 0.95)
	if est != 2 || !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
		t.Errorf("HodgesLehmann({1,2,3}) = %g [%g, %g], want 2 [-Inf, +Inf] (3 pairs cannot reach 95%%)", est, lo, hi)
	}
	// n = 10: the two-sided 5% critical value of W+ is 8 (tables), so
	// the interval runs from the 9th smallest to the 9th largest of
	// the 55 Walsh averages.
	if k := signedRankCritical(10, 0.025); k != 9 {
		t.Errorf("signedRankCritical(10, 0.025) = %d, want 9", k)
	}
	d := []float64{-3, -1, 0.5, 1, 2, 2.5, 4, 6, 7, 9}
	est, lo, hi = HodgesLehmann(d, 0.95)
	if !(lo < est && est < hi) || lo > 0.5 || hi < 4 {
		t.Errorf("HodgesLehmann(%v) = %g [%g, %g]: want a finite interval around the estimate", d, est, lo, hi)
	}
}

// TestLargeSamples checks the approximations beyond the exact sizes
// against the exact computation near the switch-over.
func TestLargeSamples(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	d := make([]float64, 200)
	for i := range d {
		d[i] = rng.NormFloat64() + 0.15
	}
	ranks, pos := signedRanks(d)
	exact, approx := SignedRankP(d), normalSignedRankP(ranks, pos)
	if math.Abs(exact-approx) > 0.005 {
		t.Errorf("n=200: exact p %.4f, normal approximation %.4f: want within 0.005", exact, approx)
	}
	if k, kn := signedRankCritical(200, 0.025), criticalNormal(200, 0.025); abs(k-kn) > 2 {
		t.Errorf("n=200: exact critical %d, normal %d", k, kn)
	}
	big := make([]float64, walshPairs+1)
	for i := range big {
		big[i] = rng.NormFloat64() + 0.5
	}
	est, lo, hi := HodgesLehmann(big, 0.95)
	if !(lo < est && est < hi) || math.Abs(est-0.5) > 0.1 {
		t.Errorf("n=%d: median %g [%g, %g], want about 0.5", len(big), est, lo, hi)
	}
}

func criticalNormal(n int, tail float64) int {
	mean := float64(n*(n+1)) / 4
	sd := math.Sqrt(float64(n*(n+1)*(2*n+1)) / 24)
	z := math.Sqrt2 * math.Erfinv(1-2*tail)
	return int(math.Floor(mean-z*sd-0.5)) + 1
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func TestMinPairs(t *testing.T) {
	for _, c := range []struct {
		alpha float64
		want  int
	}{{0.05, 6}, {0.02, 7}, {0.004, 9}, {0.001, 11}} {
		if got := MinPairs(c.alpha); got != c.want {
			t.Errorf("MinPairs(%g) = %d, want %d", c.alpha, got, c.want)
		}
	}
}
