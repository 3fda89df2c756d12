package main

import (
	"fmt"
	"math/bits"
)

// A field describes one NTT: modulus, coefficient width, root of unity and
// the shape of the transform. Everything else is derived from it.
type field struct {
	name   string // "kem" or "dsa"
	pkg    string // Go package of the kernels
	q      int64
	ebits  int   // coefficient width: 16 (int16 lanes) or 32 (int32 lanes)
	root   int64 // primitive root: 17 (ML-KEM, 256th) or 1753 (ML-DSA, 512th)
	brv    int   // bits of the bit-reversed zeta index: 7 or 8
	minLen int   // smallest butterfly stride: 2 (ML-KEM) or 1 (ML-DSA)
	invN   int64 // final scaling of InvNTT: 128⁻¹ or 256⁻¹ mod q
}

var kem = field{name: "kem", pkg: "mlkem", q: 3329, ebits: 16, root: 17, brv: 7, minLen: 2, invN: 3303}
var dsa = field{name: "dsa", pkg: "mldsa", q: 8380417, ebits: 32, root: 1753, brv: 8, minLen: 1, invN: 8347681}

func modexp(b, e, q int64) int64 {
	r := int64(1)
	for b %= q; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % q
		}
		b = b * b % q
	}
	return r
}

// zeta returns zetas[k] = root^BitRev(k) mod q of the standard's table.
func (f *field) zeta(k int) int64 {
	return modexp(f.root, int64(bits.Reverse8(uint8(k))>>(8-f.brv)), f.q)
}

// zetaFwd is the zeta of the forward (Cooley-Tukey) butterfly at stride n
// acting on coefficient j: FIPS 203 Alg. 9 / FIPS 204 Alg. 41 use index
// 128/n + j/(2n).
func (f *field) zetaFwd(n, j int) int64 { return f.zeta(128/n + j/(2*n)) }

// zetaInv is the zeta of the inverse (Gentleman-Sande) butterfly
// f[j+n] = zeta·(f[j+n]-f[j]): index 256/n - 1 - j/(2n) in both standards
// (FIPS 204 Alg. 42 negates zetas[m] and the difference).
func (f *field) zetaInv(n, j int) int64 { return f.zeta(256/n - 1 - j/(2*n)) }

// rmod is the Montgomery radix R = 2^ebits reduced mod q.
func (f *field) rmod() int64 { return (int64(1) << f.ebits) % f.q }

// center maps x mod q into (-q/2, q/2].
func (f *field) center(x int64) int64 {
	x %= f.q
	if x < 0 {
		x += f.q
	}
	if x > f.q/2 {
		x -= f.q
	}
	return x
}

// mont returns the Montgomery form c·R mod q, centered.
func (f *field) mont(c int64) int64 { return f.center(c % f.q * f.rmod()) }

// qinv is q⁻¹ mod 2^ebits as a signed lane value.
func (f *field) qinv() int64 {
	inv := uint64(1)
	for range 6 {
		inv *= 2 - uint64(f.q)*inv
	}
	return f.signed(int64(inv))
}

// signed truncates x to a signed ebits-wide lane value.
func (f *field) signed(x int64) int64 {
	s := 64 - f.ebits
	return x << s >> s
}

// limit is the largest magnitude a lane holds without overflow.
func (f *field) limit() int64 { return int64(1)<<(f.ebits-1) - 1 }

// An interval bounds a coefficient: lo ≤ x ≤ hi.
type interval struct{ lo, hi int64 }

func (a interval) union(b interval) interval { return interval{min(a.lo, b.lo), max(a.hi, b.hi)} }
func (a interval) add(b interval) interval   { return interval{a.lo + b.lo, a.hi + b.hi} }
func (a interval) sub(b interval) interval   { return interval{a.lo - b.hi, a.hi - b.lo} }
func (a interval) abs() int64                { return max(-a.lo, a.hi) }

// fits reports whether every value of a fits in a lane.
func (f *field) fits(a interval) bool { return a.lo >= -f.limit()-1 && a.hi <= f.limit() }

// montBound bounds (a·w - m·q)/2^ebits, the Montgomery product of a by a
// constant of magnitude at most wmax; m ranges over a whole signed lane.
func (f *field) montBound(a interval, wmax int64) interval {
	p := a.abs() * wmax
	r := int64(1) << f.ebits
	half := r / 2
	return interval{-((p + half*f.q) / r) - 1, (p+half*f.q)/r + 1}
}

// reduceBound bounds the output of the Barrett-style reduction of a.
func (f *field) reduceBound(a interval) interval {
	if f.ebits == 16 {
		out := interval{1 << 30, -1 << 30}
		for x := a.lo; x <= a.hi; x++ {
			r := x - (((x*20159)>>16)>>10)*f.q
			out = out.union(interval{r, r})
		}
		return out
	}
	// reduce32: t = (x + 2^22) >> 23, r = x - t·q = t·(2^23-q) + e with
	// e in [-2^22, 2^22).
	if a.hi+1<<22 > f.limit() {
		panic(fmt.Sprintf("reduce32 input bound %v would wrap", a))
	}
	tlo, thi := (a.lo+1<<22)>>23, (a.hi+1<<22)>>23
	k := int64(1)<<23 - f.q
	return interval{tlo*k - 1<<22, thi*k + 1<<22 - 1}
}
