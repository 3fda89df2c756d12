package stats

import (
	"math"
	"slices"
	"sort"
)

// A Paired compares arm B with arm A from observations taken in pairs:
// a[i] and b[i] were measured in the same round, one right after the
// other in random order, so whatever drifts between rounds (clock,
// load, steal time) cancels in the per-round log ratio d[i] = ln(b[i]/a[i]).
// Under "no difference" the arms are exchangeable within a round, so d is
// symmetric about 0 whatever the drift, and the Wilcoxon signed-rank
// test is exact.
type Paired struct {
	// N is the number of pairs.
	N int
	// Ratio is b's time relative to a's minus one (+0.02: b is 2%
	// slower), from the Hodges–Lehmann estimate of the median log ratio.
	Ratio float64
	// Lo and Hi bound Ratio with the exact confidence interval that
	// inverts the signed-rank test (±Inf with too few pairs for one).
	Lo, Hi float64
	// P is the two-sided p-value of the signed-rank test (exact with
	// ties for up to exactPairs pairs, normal approximation beyond).
	P float64
}

// exactPairs is the largest number of nonzero differences whose
// signed-rank null distribution is computed exactly.
const exactPairs = 300

// walshPairs is the largest number of pairs whose Hodges–Lehmann
// interval is computed from all Walsh averages; beyond, the estimate
// and interval are the median of the differences and its exact
// sign-test (binomial order statistic) interval.
const walshPairs = 1500

// ComparePaired compares b with a pair by pair (len(a) == len(b); pairs
// with a non-positive value are dropped) at confidence level conf.
func ComparePaired(a, b []float64, conf float64) Paired {
	d := LogRatios(a, b)
	return PairedFromLogRatios(d, conf)
}

// LogRatios returns ln(b[i]/a[i]) for the pairs where both are positive.
func LogRatios(a, b []float64) []float64 {
	var d []float64
	for i := range min(len(a), len(b)) {
		if a[i] > 0 && b[i] > 0 {
			d = append(d, math.Log(b[i]/a[i]))
		}
	}
	return d
}

// PairedFromLogRatios compares from the per-pair log ratios d.
func PairedFromLogRatios(d []float64, conf float64) Paired {
	p := Paired{N: len(d), P: 1, Lo: math.Inf(-1), Hi: math.Inf(1)}
	if len(d) == 0 {
		return p
	}
	p.P = SignedRankP(d)
	est, lo, hi := HodgesLehmann(d, conf)
	p.Ratio, p.Lo, p.Hi = math.Exp(est)-1, expm1Inf(lo), expm1Inf(hi)
	return p
}

func expm1Inf(x float64) float64 {
	if math.IsInf(x, 0) {
		return x
	}
	return math.Exp(x) - 1
}

// OK reports whether the comparison has a finite interval.
func (p Paired) OK() bool { return !math.IsInf(p.Lo, 0) && !math.IsInf(p.Hi, 0) }

// Width returns the width of the interval (Hi-Lo), +Inf without one.
func (p Paired) Width() float64 {
	if !p.OK() {
		return math.Inf(1)
	}
	return p.Hi - p.Lo
}

// Significant reports the decision rule's test for one comparison: the
// signed-rank test rejects "no difference" at alpha and the estimated
// difference exceeds threshold (a fraction) in magnitude.
func (p Paired) Significant(alpha, threshold float64) bool {
	return p.P < alpha && math.Abs(p.Ratio) > threshold
}

// SignedRankP returns the two-sided p-value of the Wilcoxon signed-rank
// test of "d is symmetric about 0". Zeros are dropped (Wilcoxon's
// convention); tied magnitudes get midranks. For up to exactPairs
// nonzero differences the null distribution is the exact one given the
// ranks (every sign pattern equally likely); beyond, the normal
// approximation with the tie-corrected variance.
func SignedRankP(d []float64) float64 {
	ranks, pos := signedRanks(d) // ranks doubled: integers even with midranks
	n := len(ranks)
	if n == 0 {
		return 1
	}
	if n > exactPairs {
		return normalSignedRankP(ranks, pos)
	}
	le, ge := 0.0, 0.0
	for s, pr := range signedRankDist(ranks) {
		if s <= pos {
			le += pr
		}
		if s >= pos {
			ge += pr
		}
	}
	return math.Min(1, 2*math.Min(le, ge))
}

// signedRanks returns the doubled midranks of |d| over the nonzero
// differences and the sum of the doubled ranks of the positive ones.
func signedRanks(d []float64) (ranks []int, pos int) {
	var nz []float64
	for _, x := range d {
		if x != 0 && !math.IsNaN(x) {
			nz = append(nz, x)
		}
	}
	idx := make([]int, len(nz))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(i, j int) bool { return math.Abs(nz[idx[i]]) < math.Abs(nz[idx[j]]) })
	ranks = make([]int, len(nz))
	for i := 0; i < len(idx); {
		j := i
		for j < len(idx) && math.Abs(nz[idx[j]]) == math.Abs(nz[idx[i]]) {
			j++
		}
		r := i + 1 + j // doubled midrank of positions i+1..j: (i+1+j)/2 * 2
		for k := i; k < j; k++ {
			ranks[idx[k]] = r
		}
		i = j
	}
	for i, x := range nz {
		if x > 0 {
			pos += ranks[i]
		}
	}
	return ranks, pos
}

// normalSignedRankP is the normal approximation (with continuity and tie
// correction) of the two-sided signed-rank p-value; ranks are doubled.
func normalSignedRankP(ranks []int, pos int) float64 {
	// Each rank R = r/2 counts with probability 1/2: E = ΣR/2, Var = ΣR²/4.
	mean, v := 0.0, 0.0
	for _, r := range ranks {
		mean += float64(r) / 4
		v += float64(r) * float64(r) / 16
	}
	z := (math.Abs(float64(pos)/2-mean) - 0.5) / math.Sqrt(v)
	if z < 0 {
		return 1
	}
	return math.Min(1, math.Erfc(z/math.Sqrt2))
}

// HodgesLehmann returns the Hodges–Lehmann estimate of the center of
// the symmetric distribution of d (the median of the Walsh averages
// (d[i]+d[j])/2, i ≤ j) and its exact confidence interval at level conf
// from the signed-rank distribution without ties: [A(k), A(M+1-k)] of
// the M sorted Walsh averages, k the largest integer with
// P(W+ ≤ k-1) ≤ (1-conf)/2. Too few values for such a k give
// -Inf, +Inf. Beyond walshPairs values it returns the median of d with
// the sign test's interval (order statistics of d).
func HodgesLehmann(d []float64, conf float64) (est, lo, hi float64) {
	n := len(d)
	if n == 0 {
		return math.NaN(), math.Inf(-1), math.Inf(1)
	}
	if n > walshPairs {
		return signInterval(d, conf)
	}
	walsh := make([]float64, 0, n*(n+1)/2)
	for i := range n {
		for j := i; j < n; j++ {
			walsh = append(walsh, (d[i]+d[j])/2)
		}
	}
	sort.Float64s(walsh)
	est = medianSorted(walsh)
	k := signedRankCritical(n, (1-conf)/2)
	if k < 1 {
		return est, math.Inf(-1), math.Inf(1)
	}
	return est, walsh[k-1], walsh[len(walsh)-k]
}

// signedRankCritical returns the largest k with P(W+ ≤ k-1) ≤ tail for
// the signed-rank statistic of n untied nonzero differences (0 if even
// P(W+ = 0) = 2^-n exceeds tail).
func signedRankCritical(n int, tail float64) int {
	if n > exactPairs {
		// Normal approximation: k-1 = mean - z*sd - 1/2, rounded down.
		mean := float64(n*(n+1)) / 4
		sd := math.Sqrt(float64(n*(n+1)*(2*n+1)) / 24)
		z := math.Sqrt2 * math.Erfinv(1-2*tail)
		return max(int(math.Floor(mean-z*sd-0.5))+1, 0)
	}
	ranks := make([]int, n)
	for i := range ranks {
		ranks[i] = i + 1
	}
	cum, k := 0.0, 0
	for w, p := range signedRankDist(ranks) {
		cum += p
		if cum > tail {
			break
		}
		k = w + 1
	}
	return k
}

// signedRankDist returns the exact null distribution of the signed-rank
// statistic for the given (integer) ranks: dist[s] is the probability
// that the ranks of the positive differences sum to s when every sign
// pattern is equally likely, for s from 0 to the sum of the ranks. Each
// rank halves the probabilities, so they stay fractions of 2^-n.
func signedRankDist(ranks []int) []float64 {
	total := 0
	for _, r := range ranks {
		total += r
	}
	dist := make([]float64, total+1)
	dist[0] = 1
	hi := 0
	for _, r := range ranks {
		for s := hi; s >= 0; s-- {
			if dist[s] != 0 {
				dist[s+r] += dist[s] * 0.5
				dist[s] *= 0.5
			}
		}
		hi += r
	}
	return dist
}

// signInterval returns the median of d and the exact sign-test interval
// of the median: order statistics x(j) and x(n+1-j), j the largest with
// P(Bin(n, 1/2) ≤ j-1) ≤ (1-conf)/2.
func signInterval(d []float64, conf float64) (est, lo, hi float64) {
	s := slices.Clone(d)
	sort.Float64s(s)
	n := len(s)
	tail := (1 - conf) / 2
	cum, j := 0.0, 0
	for i := 0; i <= n; i++ {
		cum += math.Exp(logChoose(n, i) - float64(n)*math.Ln2)
		if cum > tail {
			break
		}
		j = i + 1
	}
	if j < 1 {
		return medianSorted(s), math.Inf(-1), math.Inf(1)
	}
	return medianSorted(s), s[j-1], s[n-j]
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}

func medianSorted(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// MinPairs returns the smallest number of pairs for which the two-sided
// signed-rank test can reject at alpha (all differences of one sign:
// p = 2·2^-n).
func MinPairs(alpha float64) int {
	n := 1
	for 2*math.Pow(2, -float64(n)) > alpha && n < 64 {
		n++
	}
	return n
}
