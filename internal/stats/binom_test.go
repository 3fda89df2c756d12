package stats

import (
	"math"
	"math/big"
	"testing"
)

// TestClopperPearsonKnown checks intervals against values computed
// independently: by bisection on the regularized incomplete beta function
// I_x(a, b) at 40 significant digits (mpmath.betainc), lo = I⁻¹(0.025; k,
// n−k+1) and hi = I⁻¹(0.975; k+1, n−k).
func TestClopperPearsonKnown(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{2, 30, 0.00817813446065632, 0.220735401522962},
		{7, 300, 0.00943150206179463, 0.0474825650297819},
		{9, 300, 0.013807819555526, 0.0561835482416158},
		{15, 300, 0.0282512019684964, 0.0811273571707642},
		{0, 48, 0, 0.0739727853472802},
		{0, 300, 0, 0.0122209746942936},
		{300, 300, 0.987779025305706, 1},
		{1, 1, 0.025, 1},
		{0, 1, 0, 0.975},
		{50, 100, 0.398321129503301, 0.601678870496699},
		{98, 100, 0.92961606752893, 0.997568663176057},
		{3, 1000, 0.000619099931649571, 0.0087420232384783},
		{17, 23, 0.515948029597562, 0.897713866084642},
	} {
		lo, hi := ClopperPearson95(c.k, c.n)
		if math.Abs(lo-c.lo) > 1e-9 || math.Abs(hi-c.hi) > 1e-9 {
			t.Errorf("ClopperPearson95(%d, %d) = [%.12f, %.12f], want [%.12f, %.12f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// TestClopperPearsonIssueExample is the issue's example: 2 positives in 30
// verdicts say only that the rate lies in 0.8%–22%.
func TestClopperPearsonIssueExample(t *testing.T) {
	lo, hi := ClopperPearson95(2, 30)
	if got := [2]float64{math.Round(lo*1e4) / 1e4, math.Round(hi*1e4) / 1e4}; got != [2]float64{0.0082, 0.2207} {
		t.Errorf("ClopperPearson95(2, 30) rounds to %v, want [0.0082 0.2207]", got)
	}
}

// TestClopperPearsonClosedForms checks the ends, where the interval has a
// closed form: with k = 0, P(X ≤ 0) = (1−p)^n = tail gives hi =
// 1 − tail^(1/n); with k = n, P(X ≥ n) = p^n = tail gives lo = tail^(1/n).
func TestClopperPearsonClosedForms(t *testing.T) {
	for _, conf := range []float64{0.95, 0.99, 0.5} {
		tail := (1 - conf) / 2
		for n := 1; n <= 600; n += 7 {
			want := math.Pow(tail, 1/float64(n))
			if lo, hi := ClopperPearson(0, n, conf); lo != 0 || math.Abs(hi-(1-want)) > 1e-12 {
				t.Errorf("ClopperPearson(0, %d, %g) = [%g, %g], want [0, %.15f]", n, conf, lo, hi, 1-want)
			}
			if lo, hi := ClopperPearson(n, n, conf); hi != 1 || math.Abs(lo-want) > 1e-12 {
				t.Errorf("ClopperPearson(%d, %d, %g) = [%g, %g], want [%.15f, 1]", n, n, conf, lo, hi, want)
			}
		}
	}
}

// TestClopperPearsonSymmetry checks that swapping successes and failures
// mirrors the interval: lo(k, n) = 1 − hi(n−k, n).
func TestClopperPearsonSymmetry(t *testing.T) {
	for _, n := range []int{1, 2, 5, 30, 101, 300} {
		for k := 0; k <= n; k += max(1, n/13) {
			lo, hi := ClopperPearson95(k, n)
			mlo, mhi := ClopperPearson95(n-k, n)
			if math.Abs(lo-(1-mhi)) > 1e-12 || math.Abs(hi-(1-mlo)) > 1e-12 {
				t.Errorf("ClopperPearson95(%d, %d) = [%g, %g] but ClopperPearson95(%d, %d) = [%g, %g]: not mirror images", k, n, lo, hi, n-k, n, mlo, mhi)
			}
		}
	}
}

// TestClopperPearsonDefinition checks the defining tail probabilities at
// the bounds and that the interval holds the point estimate.
func TestClopperPearsonDefinition(t *testing.T) {
	for _, c := range [][2]int{{1, 10}, {2, 30}, {9, 300}, {150, 300}, {299, 300}, {40, 2000}} {
		k, n := c[0], c[1]
		lo, hi := ClopperPearson95(k, n)
		if got := BinomialCDF(k, n, hi); math.Abs(got-0.025) > 1e-9 {
			t.Errorf("k=%d n=%d: P(X <= k) at hi=%g is %g, want 0.025", k, n, hi, got)
		}
		if got := 1 - BinomialCDF(k-1, n, lo); math.Abs(got-0.025) > 1e-9 {
			t.Errorf("k=%d n=%d: P(X >= k) at lo=%g is %g, want 0.025", k, n, lo, got)
		}
		if p := float64(k) / float64(n); !(lo < p && p < hi) {
			t.Errorf("k=%d n=%d: interval [%g, %g] does not contain %g", k, n, lo, hi, p)
		}
	}
}

// TestCDFExact compares CDF with the binomial sum in exact rational
// arithmetic.
func TestCDFExact(t *testing.T) {
	for _, n := range []int{1, 2, 7, 30, 60} {
		for _, p := range []*big.Rat{big.NewRat(1, 3), big.NewRat(1, 20), big.NewRat(7, 8)} {
			pf, _ := p.Float64()
			for k := -1; k <= n; k++ {
				want, _ := exactCDF(k, n, p).Float64()
				if got := BinomialCDF(k, n, pf); math.Abs(got-want) > 1e-12 {
					t.Errorf("BinomialCDF(%d, %d, %v) = %.17g, want %.17g", k, n, p, got, want)
				}
			}
		}
	}
}

// exactCDF is Σ_{i≤k} C(n,i) p^i (1−p)^(n−i) in rationals.
func exactCDF(k, n int, p *big.Rat) *big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	sum := new(big.Rat)
	for i := 0; i <= k && i <= n; i++ {
		term := new(big.Rat).SetInt(new(big.Int).Binomial(int64(n), int64(i)))
		term.Mul(term, ratPow(p, i))
		term.Mul(term, ratPow(q, n-i))
		sum.Add(sum, term)
	}
	return sum
}

func ratPow(x *big.Rat, e int) *big.Rat {
	r := big.NewRat(1, 1)
	for ; e > 0; e-- {
		r.Mul(r, x)
	}
	return r
}

func TestClopperPearsonInvalid(t *testing.T) {
	for _, c := range []struct {
		k, n int
		conf float64
	}{{-1, 10, 0.95}, {11, 10, 0.95}, {0, 0, 0.95}, {1, 10, 0}, {1, 10, 1}, {1, 10, math.NaN()}} {
		if lo, hi := ClopperPearson(c.k, c.n, c.conf); !math.IsNaN(lo) || !math.IsNaN(hi) {
			t.Errorf("ClopperPearson(%d, %d, %g) = [%g, %g], want NaN, NaN", c.k, c.n, c.conf, lo, hi)
		}
	}
}

func TestSignTestP(t *testing.T) {
	for _, tt := range []struct {
		a, b int
		want float64
	}{{0, 0, 1}, {5, 5, 1}, {0, 10, 2.0 / 1024}, {10, 0, 2.0 / 1024}, {1, 9, 2 * 11.0 / 1024}} {
		if got := SignTestP(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("SignTestP(%d, %d) = %g, want %g", tt.a, tt.b, got, tt.want)
		}
	}
}
