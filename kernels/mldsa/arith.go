package mldsa

import (
	"encoding/binary"
	"unsafe"
)

// Coefficient arithmetic of the whole operations. A poly holds canonical
// coefficients in [0, Q) (what NTT, InvNTT and MulNTT take and return)
// unless its comment says it holds centered ones. Everything here is
// branch-free and uses no secret-dependent memory index: the signing key's
// polynomials go through it.

// poly is a polynomial, the kernels' *[256]int32 without conversion.
type poly = [n]int32

// canon maps x in (-Q, Q) to x mod Q in [0, Q).
func canon(x int32) int32 { return x + (x>>31)&Q }

// centered maps canonical x to x mod± Q in [-(Q-1)/2, (Q-1)/2].
func centered(x int32) int32 { return x - ((Q-1)/2-x)>>31&Q }

// abs returns |x| for x > -2^31.
func abs(x int32) int32 {
	m := x >> 31
	return (x ^ m) - m
}

// canonPoly maps the centered coefficients of src (in (-Q, Q)) to dst in
// [0, Q).
func canonPoly(dst, src *poly) {
	for i, x := range src {
		dst[i] = canon(x)
	}
}

// The row sums of the matrix products run two coefficients at a time in
// 64-bit words (SWAR): a polynomial's bytes read in native byte order as
// 128 words hold two int32 lanes each, whatever the endianness, and none
// of the sums below carries from one lane into the other. Bytes are read
// through encoding/binary, so no alignment is assumed.

// Lane constants: a value in both 32-bit lanes of a word.
const (
	lanes1    = 1<<32 | 1
	lanesQ    = Q * lanes1
	lanesBias = (1<<31 - Q) * lanes1 // lane + bias has bit 31 set iff lane >= Q
)

// words returns the bytes of a as 128 native-order words of 8 bytes.
func words(a *poly) *[n / 2][8]byte { return (*[n / 2][8]byte)(unsafe.Pointer(a)) }

// load and store read and write one word.
func load(b *[8]byte) uint64     { return binary.NativeEndian.Uint64(b[:]) }
func store(b *[8]byte, v uint64) { binary.NativeEndian.PutUint64(b[:], v) }

// subReduce sets a to (a - b) mod Q for a lazy sum a below 2^26 - Q and
// canonical b, computed as a + Q - b.
func subReduce(a, b *poly) {
	x, y := words(a), words(b)
	for i := range x {
		store(&x[i], reduceLanes(load(&x[i])+lanesQ-load(&y[i])))
	}
}

// reduceLanes reduces both lanes of v (each below 2^26) modulo Q: the
// three bits above 2^23 of a lane x times Q come off, leaving x mod 2^23 +
// (x>>23)·8191 in [0, 2Q) as Q = 2^23 - 8191 (no lane borrows), then Q
// comes off each lane still at least Q.
func reduceLanes(v uint64) uint64 {
	v -= (v >> 23 & (7 * lanes1)) * Q
	return v - ((v+lanesBias)>>31&lanes1)*Q
}

// exceeds reports whether some centered coefficient of a has |a_i| >=
// bound. It reads every coefficient and leaks neither which one nor its
// sign: the caller branches only on the rejection the spec accepts.
func exceeds(a *poly, bound int32) bool {
	var bad int32
	for _, x := range a {
		bad |= bound - 1 - abs(x)
	}
	return bad < 0
}

// exceedsCanon is exceeds for canonical coefficients, centered first.
func exceedsCanon(a *poly, bound int32) bool {
	var bad int32
	for _, x := range a {
		bad |= bound - 1 - abs(centered(x))
	}
	return bad < 0
}

// power2Round splits canonical r into (r1, r0) with r = r1·2^d + r0 and
// r0 in (-2^(d-1), 2^(d-1)] (FIPS 204 Algorithm 35).
func power2Round(r int32) (r1, r0 int32) {
	r1 = (r + 1<<(d-1) - 1) >> d
	return r1, r - r1<<d
}

// A rounding is Decompose (FIPS 204 Algorithm 36) for one γ2, as
// multiplications and shifts: for canonical r, r1 = round(r / 2γ2) is
// ⌈r/128⌉·mult / 2^24 rounded, as 2γ2 = 128·4092 (γ2 = (Q-1)/32) or
// 128·1488 (γ2 = (Q-1)/88) and mult/2^24 = 4100/2^24 or 11275/2^24
// approximates 1/4092 or 1/1488 closely enough for every r in [0, Q), as
// TestDecompose checks exhaustively; r1 = m = (Q-1)/(2γ2) wraps to 0, the
// case r - r0 = Q-1 of the spec, where r0 = r - Q is r mod± 2γ2 minus 1.
// The shift is the same for both, so that the loops over a polynomial
// shift by a constant.
type rounding struct {
	mult  int32
	m     int32 // (Q-1)/(2γ2), the number of values of r1
	twoG2 int32 // 2γ2
}

// The multipliers of the two roundings, and their shift.
const (
	mult32     = 4100  // ≈ 2^24 / 4092
	mult88     = 11275 // ≈ 2^24 / 1488
	roundShift = 24
)

var (
	rounding32 = rounding{mult: mult32, m: 16, twoG2: 2 * ((Q - 1) / 32)}
	rounding88 = rounding{mult: mult88, m: 44, twoG2: 2 * ((Q - 1) / 88)}
)

// decompose returns (r1, r0) = Decompose(r) for canonical r: r = r1·2γ2 +
// r0 (mod Q), r0 in (-γ2, γ2] except for r0 = -γ2 at the wrap.
func (rd rounding) decompose(r int32) (r1, r0 int32) {
	r1 = (r + 127) >> 7
	r1 = (r1*rd.mult + 1<<(roundShift-1)) >> roundShift
	r1 ^= (rd.m - 1 - r1) >> 31 & r1
	r0 = r - r1*rd.twoG2
	return r1, r0 - ((Q-1)/2-r0)>>31&Q
}

// highBits returns HighBits(r) (FIPS 204 Algorithm 37) for canonical r.
func (rd rounding) highBits(r int32) int32 {
	r1, _ := rd.decompose(r)
	return r1
}

// decompose32 is Decompose for γ2 = (Q-1)/32, its constants folded.
func decompose32(r int32) (r1, r0 int32) {
	return rounding{mult: mult32, m: 16, twoG2: 2 * ((Q - 1) / 32)}.decompose(r)
}

// decompose88 is Decompose for γ2 = (Q-1)/88, its constants folded.
func decompose88(r int32) (r1, r0 int32) {
	return rounding{mult: mult88, m: 44, twoG2: 2 * ((Q - 1) / 88)}.decompose(r)
}

// useHint returns UseHint(h, r) (FIPS 204 Algorithm 40) for canonical r
// and h in {0, 1}: HighBits(r) moved by h, modulo m, towards the side of
// LowBits(r). Verification runs it on public data only.
func (rd rounding) useHint(h, r int32) int32 {
	r1, r0 := rd.decompose(r)
	step := h - (-r0>>31&1^1)*2*h // +h if r0 > 0, else -h
	r1 += step
	r1 += (r1 >> 31) & rd.m
	return r1 - ((rd.m-1-r1)>>31)&rd.m
}
