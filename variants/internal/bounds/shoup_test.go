package bounds

import (
	"math/rand/v2"
	"testing"
)

// shoupHW is what the eight instructions of Shoup's product compute on
// one lane: t = hi32 of the signed product x·w′ (VPMULDQ), then
// lo32(x·w) − lo32(t·q) (VPMULLD, VPMULLD, VPSUBD), wrapping.
func shoupHW(x, w, wq, q int32) uint32 {
	t := int32((int64(x) * int64(wq)) >> 32)
	return uint32(x)*uint32(w) - uint32(t)*uint32(q)
}

// inRange reports whether the 32-bit pattern v is an integer of [lo, hi].
func inRange(v uint32, lo, hi int64) bool {
	for _, n := range []int64{int64(int32(v)), int64(v)} {
		if lo <= n && n <= hi {
			return true
		}
	}
	return false
}

// TestShoupRange: for ML-DSA's q with the Shoup quotient of every w in
// a sample (and quotients off by a few, which widen δ), random and
// extreme lanes x of random intervals give a pattern that shoupRange's
// bound contains; with the rounded quotient the bound is within
// q + |x|·q/2^33 of [0, q).
func TestShoupRange(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2))
	const q = 8380417
	for i := range 3000 {
		w := r.Int64N(q) - q/2
		wq := (w<<33 + q) / (2 * q)
		if w < 0 {
			wq = -((-w<<33 + q) / (2 * q))
		}
		off := int64(0)
		if i%3 == 0 {
			off = r.Int64N(9) - 4
		}
		xl := r.Int64N(1<<31) - 1<<30
		xh := xl + r.Int64N(1<<30)
		lo, hi, ok := shoupRange(xl, xh, w, wq+off, q)
		if !ok {
			t.Fatalf("w=%d w'=%d over [%d, %d]: no range", w, wq+off, xl, xh)
		}
		if off == 0 {
			d := (q*max(-xl, xh))>>33 + 2
			if lo < -d || hi > q+d {
				t.Fatalf("w=%d over [%d, %d]: range [%d, %d] wider than [%d, %d]", w, xl, xh, lo, hi, -d, q+d)
			}
		}
		for k := range 200 {
			x := xl + r.Int64N(xh-xl+1)
			if k < 2 {
				x = []int64{xl, xh}[k]
			}
			if v := shoupHW(int32(x), int32(w), int32(wq+off), q); !inRange(v, lo, hi) {
				t.Fatalf("w=%d w'=%d x=%d: %d outside [%d, %d]", w, wq+off, x, int32(v), lo, hi)
			}
		}
	}
}

// TestShoupRangeExhaustive checks every x of 2^20 intervals around 0
// and the 32-bit extremes, for small q and w and quotients off the
// rounded w·2^32/q by up to a million (|δ| up to 2^30).
func TestShoupRangeExhaustive(t *testing.T) {
	for _, c := range [][3]int64{{3, 0, 97}, {-5, 1000, 113}, {1, -1 << 20, 1021}, {-1, 1 << 20, 3}, {510, 7, 1021}} {
		w, q := c[0], c[2]
		wq := (w<<33+q)/(2*q) + c[1]
		if wq != int64(int32(wq)) {
			t.Fatalf("w'=%d is no 32-bit constant", wq)
		}
		for _, base := range []int64{-1 << 19, -1 << 31, 1<<31 - 1<<20} {
			xl, xh := base, base+1<<20-1
			lo, hi, ok := shoupRange(xl, xh, w, wq, q)
			if !ok {
				t.Fatalf("w=%d w'=%d q=%d over [%d, %d]: no range", w, wq, q, xl, xh)
			}
			for x := xl; x <= xh; x++ {
				if v := shoupHW(int32(x), int32(w), int32(wq), int32(q)); !inRange(v, lo, hi) {
					t.Fatalf("w=%d w'=%d q=%d x=%d: %d outside [%d, %d]", w, wq, q, x, int32(v), lo, hi)
				}
			}
		}
	}
}

// TestShoupRangeLimits: constants whose terms could leave int64, or
// whose range is 2^32 wide, give no range.
func TestShoupRangeLimits(t *testing.T) {
	for _, c := range [][5]int64{
		{-1 << 31, 1<<31 - 1, 1, 1 << 30, 8380417}, // δ of 2^62
		{0, 10, 1, 0, 1 << 30},                     // q of 2^30
	} {
		if _, _, ok := shoupRange(c[0], c[1], c[2], c[3], c[4]); ok {
			t.Errorf("%v: a range", c)
		}
	}
}
