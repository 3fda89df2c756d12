// Exact binomial statistics: the Clopper–Pearson interval of k successes
// in n trials, found by bisection on the binomial CDF, which equals the
// regularized incomplete beta function the interval is usually stated
// with: P(X ≤ k; n, p) = 1 − I_p(k+1, n−k); and the exact sign test.
//
// tunelab uses them to state how much a measured rate (an A/A
// false-positive rate, a detection rate) can say after n verdicts, and
// whether a split of verdicts between two sides is more uneven than
// chance.

package stats

import "math"

// BinomialCDF returns P(X ≤ k) for X ~ Binomial(n, p), for 0 ≤ p ≤ 1 and n ≥ 0;
// it is 0 for k < 0 and 1 for k ≥ n. Terms are summed in log space, so
// large n neither overflows nor loses the tail.
func BinomialCDF(k, n int, p float64) float64 {
	switch {
	case k < 0:
		return 0
	case k >= n:
		return 1
	case p <= 0:
		return 1
	case p >= 1:
		return 0
	}
	lp, lq := math.Log(p), math.Log1p(-p)
	sum := 0.0
	for i := 0; i <= k; i++ {
		sum += math.Exp(logChoose(n, i) + float64(i)*lp + float64(n-i)*lq)
	}
	return math.Min(sum, 1)
}

// ClopperPearson returns the exact two-sided interval [lo, hi] of
// confidence level conf (0.95 for 95%) for the success probability after
// k successes in n trials: lo is the p at which P(X ≥ k) = (1−conf)/2
// (0 when k = 0) and hi the p at which P(X ≤ k) = (1−conf)/2 (1 when
// k = n). It returns NaN, NaN unless 0 ≤ k ≤ n, n ≥ 1 and 0 < conf < 1.
func ClopperPearson(k, n int, conf float64) (lo, hi float64) {
	if n < 1 || k < 0 || k > n || !(conf > 0 && conf < 1) {
		return math.NaN(), math.NaN()
	}
	tail := (1 - conf) / 2
	lo, hi = 0, 1
	if k > 0 {
		// P(X ≥ k) = 1 − BinomialCDF(k−1) grows with p.
		lo = bisect(func(p float64) bool { return 1-BinomialCDF(k-1, n, p) < tail })
	}
	if k < n {
		// P(X ≤ k) = BinomialCDF(k) falls with p.
		hi = bisect(func(p float64) bool { return BinomialCDF(k, n, p) > tail })
	}
	return lo, hi
}

// ClopperPearson95 returns ClopperPearson(k, n, 0.95).
func ClopperPearson95(k, n int) (lo, hi float64) { return ClopperPearson(k, n, 0.95) }

// SignTestP returns the exact two-sided p-value of a split of a and b
// under a fair coin: twice the probability of a split at least as
// uneven, at most 1 (1 for no trials).
func SignTestP(a, b int) float64 {
	n := a + b
	if n == 0 {
		return 1
	}
	return math.Min(1, 2*BinomialCDF(min(a, b), n, 0.5))
}

// bisect returns the boundary in [0, 1] between the ps for which below
// holds (the lower ones) and those for which it does not, to within
// float64 resolution.
func bisect(below func(p float64) bool) float64 {
	a, b := 0.0, 1.0
	for i := 0; i < 200 && b-a > 1e-16; i++ {
		m := (a + b) / 2
		if m <= a || m >= b {
			break
		}
		if below(m) {
			a = m
		} else {
			b = m
		}
	}
	return (a + b) / 2
}
