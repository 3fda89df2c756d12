package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// The assembly variants compute with signed 16-bit lanes: Montgomery
// products by constants, a Barrett-style reduction, (red=lazy) no
// reduction unless a lane could overflow, and for canon=exact and
// canon=min an exact division of biased unsigned lanes and corrections by
// unsigned minimum. These tests prove the bounds the generator
// (variants/ntt) relies on, exhaustively over every int16 input.

const (
	qinv    = -3327 // q⁻¹ mod 2^16, signed
	barrett = 20159 // round(2^26/q)
)

func center(x int32) int32 { return nttfieldtest.Center(x, Q) }

// montMul is the lane arithmetic of a Montgomery product by w:
// hi(a·w) - hi(q·lo(a·w·q⁻¹)) (VPMULHW, VPMULLW, VPMULHW, VPSUBW).
func montMul(a, w int16) int16 {
	wq := int16(int32(w) * qinv)
	lo := int16(int32(a) * int32(wq))
	return int16(int32(a)*int32(w)>>16 - int32(lo)*Q>>16)
}

// reduce is the lane arithmetic of the Barrett reduction.
func reduce(x int16) int16 {
	t := int16((int32(x) * barrett >> 16) >> 10)
	return x - t*Q
}

// TestMontgomeryBound: for every int16 a and every zeta multiplier
// (centered Montgomery form), the product is a·zeta mod q and lies in
// (-q, q), which is what lets red=lazy skip reductions after products.
func TestMontgomeryBound(t *testing.T) {
	if q := int32(Q); int16(q*qinv) != 1 {
		t.Fatalf("qinv %d is not q⁻¹ mod 2^16", qinv)
	}
	for _, z := range zetas {
		w := int16(center(z << 16 % Q))
		for a := int32(-32768); a <= 32767; a++ {
			r := int32(montMul(int16(a), w))
			if r <= -Q || r >= Q {
				t.Fatalf("montMul(%d, zeta %d) = %d outside (-q, q)", a, z, r)
			}
			if ((r-a*z)%Q+Q)%Q != 0 {
				t.Fatalf("montMul(%d, zeta %d) = %d, not a·zeta mod q", a, z, r)
			}
		}
	}
}

// TestBarrettBound: the reduction maps every int16 to [0, q] congruently.
func TestBarrettBound(t *testing.T) {
	for x := int32(-32768); x <= 32767; x++ {
		r := int32(reduce(int16(x)))
		if r < 0 || r > Q || (r-x)%Q != 0 {
			t.Fatalf("reduce(%d) = %d, want in [0, q] and congruent", x, r)
		}
	}
}

// TestLazyGrowth propagates coefficient intervals through the butterfly
// structure of Algorithms 9 and 10 with the lazy rule (reduce an operand
// only if a sum or difference could leave int16) and checks that no
// intermediate value leaves int16 and that NTT needs no reduction at all.
func TestLazyGrowth(t *testing.T) {
	const lim = 32767
	type iv struct{ lo, hi int32 }
	mont := iv{-(Q - 1), Q - 1}
	fits := func(a iv) bool { return a.lo >= -lim-1 && a.hi <= lim }
	var b [256]iv
	for i := range b {
		b[i] = iv{0, Q - 1}
	}
	for n := 128; n >= 2; n /= 2 {
		for j := range 256 {
			if j&n != 0 {
				continue
			}
			x := b[j]
			sum, dif := iv{x.lo + mont.lo, x.hi + mont.hi}, iv{x.lo - mont.hi, x.hi - mont.lo}
			if !fits(sum) || !fits(dif) {
				t.Fatalf("NTT stride %d: coefficient %d would overflow: %v", n, j, sum)
			}
			b[j], b[j+n] = sum, dif
		}
	}
	reductions := 0
	for i := range b {
		b[i] = iv{0, Q - 1}
	}
	for n := 2; n <= 128; n *= 2 {
		for j := range 256 {
			if j&n != 0 {
				continue
			}
			x, y := b[j], b[j+n]
			for !fits(iv{x.lo + y.lo, x.hi + y.hi}) || !fits(iv{y.lo - x.hi, y.hi - x.lo}) {
				reductions++
				if max(-x.lo, x.hi) >= max(-y.lo, y.hi) {
					x = iv{0, Q}
				} else {
					y = iv{0, Q}
				}
			}
			b[j], b[j+n] = iv{x.lo + y.lo, x.hi + y.hi}, mont
		}
	}
	if reductions == 0 || reductions > 256 {
		t.Errorf("InvNTT: %d lazy reductions, want some and at most one per coefficient", reductions)
	}
	t.Logf("InvNTT with lazy reduction: %d coefficient reductions (eager: %d)", reductions, 7*128)
}

// exactDiv is the lane arithmetic of canon=exact on an unsigned lane u:
// t = (hi16(u·40318) >> 11) (VPMULHUW, VPSRLW), u - t·q (VPMULLW, VPSUBW).
func exactDiv(u uint16) uint16 {
	t := uint16(uint32(u) * 40318 >> 16 >> 11)
	return u - t*Q
}

// TestExactDivision: for every unsigned 16-bit lane, canon=exact's
// quotient is exactly floor(u/q), so the remainder is canonical.
func TestExactDivision(t *testing.T) {
	for u := range 1 << 16 {
		if got, want := exactDiv(uint16(u)), uint16(u%Q); got != want {
			t.Fatalf("exactDiv(%d) = %d, want %d", u, got, want)
		}
	}
}

// TestExactBias: canon=exact adds 8q to f[0] and f[1] only. Through the
// butterflies of Algorithm 9 (x, y → x + t, x - t) every output inherits
// it, no biased coefficient is ever the multiplied operand, and with the
// lazy bounds of TestLazyGrowth every biased output lies in [0, 2^16).
func TestExactBias(t *testing.T) {
	const c = 8 * Q
	type iv struct{ lo, hi int32 }
	var bias [256]int32
	var b [256]iv
	for i := range b {
		b[i] = iv{0, Q - 1}
	}
	bias[0], bias[1] = c, c
	for n := 128; n >= 2; n /= 2 {
		for j := range 256 {
			if j&n != 0 {
				continue
			}
			if bias[j+n] != 0 {
				t.Fatalf("stride %d: biased coefficient %d multiplied", n, j+n)
			}
			bias[j+n] = bias[j]
			x := b[j]
			b[j], b[j+n] = iv{x.lo - (Q - 1), x.hi + Q - 1}, iv{x.lo - (Q - 1), x.hi + Q - 1}
		}
	}
	for k := range 256 {
		if bias[k] != c || b[k].lo+c < 0 || b[k].hi+c >= 1<<16 {
			t.Fatalf("output %d: bias %d, biased bounds [%d, %d]", k, bias[k], b[k].lo+c, b[k].hi+c)
		}
	}
}

// TestMinCanonical: canon=min's last correction, min(x, x+q) as unsigned
// lanes for x in (-q, q) and min(x, x-q) for x in [0, 2q), is x mod q.
func TestMinCanonical(t *testing.T) {
	q := uint16(Q)
	for x := int32(-Q + 1); x < Q; x++ {
		a := uint16(int16(x))
		if got, want := int32(min(a, a+q)), (x+Q)%Q; got != want {
			t.Fatalf("min(x, x+q) for x = %d: %d, want %d", x, got, want)
		}
	}
	for x := int32(0); x < 2*Q; x++ {
		a := uint16(x)
		if got, want := int32(min(a, a-q)), x%Q; got != want {
			t.Fatalf("min(x, x-q) for x = %d: %d, want %d", x, got, want)
		}
	}
}
