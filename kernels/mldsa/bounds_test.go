package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/internal/nttfield/nttfieldtest"
)

// The assembly variants compute with signed 32-bit lanes: Montgomery
// products by constants (VPMULLD/VPMULDQ), reduce32 and, for red=lazy, no
// reduction at all. These tests prove the bounds the generator relies on
// on the extreme inputs and a dense sample, and the growth through layers.

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
