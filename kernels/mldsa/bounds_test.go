package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// The assembly variants compute with signed 32-bit lanes: Montgomery
// products by constants (VPMULLD/VPMULDQ) or, for mul=shoup, Shoup
// products (VPMULDQ quotient, VPMULLD remainder), reduce32, corrections by
// unsigned minimum (canon=min) and, for red=lazy, no reduction at all.
// These tests prove the bounds the generator relies on on the extreme
// inputs and a dense sample, and the growth through layers.

const qinv = 58728449 // q⁻¹ mod 2^32

func center(x int64) int64 { return nttfieldtest.Center(x, Q) }

// montMul is the lane arithmetic: (a·w - m·q)/2^32, m = lo32(a·w·q⁻¹).
func montMul(a int32, w int64) int64 {
	m := int64(int32(uint32(a) * uint32(int32(w*qinv))))
	return (int64(a)*w - m*Q) >> 32
}

// reduce is reduce32: x - ((x + 2^22) >> 23)·q.
func reduce(x int32) int64 { return int64(x) - int64((x+1<<22)>>23)*Q }

func samples() []int32 {
	out := []int32{-1 << 31, 1<<31 - 1, 0, 1, -1, Q, -Q, 9 * Q, -9 * Q}
	for x := int64(-1 << 31); x < 1<<31; x += 65537 {
		out = append(out, int32(x))
	}
	return out
}

// TestMontgomeryBound: every product of a lane value by a zeta multiplier
// is congruent to a·zeta and lies in (-q, q).
func TestMontgomeryBound(t *testing.T) {
	if q := uint32(Q); q*qinv != 1 {
		t.Fatalf("qinv is not q⁻¹ mod 2^32")
	}
	as := samples()
	for m := 1; m < 256; m += 3 {
		z := zetas[m]
		w := center(z << 32 % Q)
		for _, a := range as {
			r := montMul(a, w)
			if r <= -Q || r >= Q || ((r-int64(a)*z)%Q+Q)%Q != 0 {
				t.Fatalf("montMul(%d, zeta %d) = %d, want in (-q, q) and congruent", a, z, r)
			}
		}
	}
}

// TestReduceBound: reduce32 maps lanes up to 2^31 - 2^22 into (-q, q).
func TestReduceBound(t *testing.T) {
	for _, x := range samples() {
		if int64(x) > 1<<31-1<<22 {
			continue
		}
		r := reduce(x)
		if r <= -Q || r >= Q || (r-int64(x))%Q != 0 {
			t.Fatalf("reduce(%d) = %d, want in (-q, q) and congruent", x, r)
		}
	}
}

// TestLazyGrowth: without any reduction, NTT coefficients stay below 9q
// and InvNTT coefficients below 256q, both inside int32, so red=lazy
// variants need no reduction before the final canonicalization.
func TestLazyGrowth(t *testing.T) {
	const lim = 1<<31 - 1
	var b [256]int64
	for i := range b {
		b[i] = Q - 1
	}
	for n := 128; n >= 1; n /= 2 {
		for j := range 256 {
			if j&n == 0 {
				b[j], b[j+n] = b[j]+Q-1, b[j]+Q-1
			}
		}
	}
	for j, x := range b {
		if x >= 9*Q || x > lim {
			t.Fatalf("NTT coefficient %d bound %d", j, x)
		}
	}
	for i := range b {
		b[i] = Q - 1
	}
	for n := 1; n < 256; n *= 2 {
		for j := range 256 {
			if j&n == 0 {
				if b[j]+b[j+n] > lim {
					t.Fatalf("InvNTT stride %d coefficient %d: bound %d overflows", n, j, b[j]+b[j+n])
				}
				b[j], b[j+n] = b[j]+b[j+n], Q-1
			}
		}
	}
}

// shoupQuotient is w' = round(w·2^32/q) of mul=shoup.
func shoupQuotient(w int64) int64 {
	n, d := w<<33+Q, int64(2*Q)
	r := n / d
	if n%d != 0 && n < 0 {
		r--
	}
	return r
}

// shoupMul is the lane arithmetic of mul=shoup: t = hi32(a·w') (VPMULDQ
// on even and odd lanes), r = lo32(a·w) - lo32(t·q) (VPMULLD, VPSUBD).
func shoupMul(a int32, w, wq int64) int64 {
	t := int32((int64(a) * wq) >> 32)
	return int64(int32(uint32(a)*uint32(int32(w)) - uint32(t)*uint32(Q)))
}

// TestShoupBound: every Shoup product of a lane value by a zeta (and by a
// zeta times 256⁻¹, the last InvNTT layer's) is congruent to a·zeta and
// lies in the generator's bound -q|a|/2^33 - 1 .. q + q|a|/2^33 + 1.
func TestShoupBound(t *testing.T) {
	as := samples()
	for m := 0; m < 256; m++ {
		for _, z := range []int64{zetas[m], zetas[m] * invN % Q} {
			w := center(z)
			wq := shoupQuotient(w)
			if wq < -1<<31 || wq >= 1<<31 {
				t.Fatalf("zeta %d: quotient %d does not fit a lane", z, wq)
			}
			for _, a := range as {
				r := shoupMul(a, w, wq)
				abs := max(int64(a), -int64(a))
				d := Q*abs>>33 + 1
				if r < -d || r > Q+d || ((r-int64(a)*z)%Q+Q)%Q != 0 {
					t.Fatalf("shoupMul(%d, zeta %d) = %d, want in [%d, %d] and congruent", a, z, r, -d, Q+d)
				}
			}
		}
	}
}

// TestMinCanonical: canon=min's last correction, min(x, x+q) as unsigned
// lanes for x in (-q, q) and min(x, x-q) for x in [0, 2q), is x mod q.
func TestMinCanonical(t *testing.T) {
	q := uint32(Q)
	xs := []int64{-Q + 1, -1, 0, Q - 1, Q, 2*Q - 1}
	for x := int64(-Q + 1); x < 2*Q; x += 97 {
		xs = append(xs, x)
	}
	for _, x := range xs {
		if x < Q {
			a := uint32(int32(x))
			if got, want := int64(min(a, a+q)), (x+Q)%Q; got != want {
				t.Fatalf("min(x, x+q) for x = %d: %d, want %d", x, got, want)
			}
		}
		if x >= 0 {
			a := uint32(x)
			if got, want := int64(min(a, a-q)), x%Q; got != want {
				t.Fatalf("min(x, x-q) for x = %d: %d, want %d", x, got, want)
			}
		}
	}
}
