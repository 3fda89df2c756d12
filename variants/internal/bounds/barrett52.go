package bounds

import (
	"math/big"
	"math/bits"
)

// IFMA's Barrett reduction of a 64-bit product p (ML-DSA's mul=ifma
// MulNTT):
//
//	t = hi52(p·v)   (VPMADD52HUQ into a zeroed accumulator)
//	r = p − t·q     (VPMULUDQ of t's low dword by q, VPSUBQ)
//
// With m = p·v − 2^52·t ∈ [0, 2^52) (t is the floor of the 104-bit
// product of p's and v's low 52 bits over 2^52, p and v below 2^52) and
// δ = q·v − 2^52, the identity of Shoup's rule with w = 1 and 2^52:
//
//	2^52·(p − q·t) = 2^52·p − q·(p·v − m) = q·m − p·δ,
//
// so p − q·t lies in [⌈(min q·m − max p·δ)/2^52⌉, ⌊(max q·m − min p·δ)/2^52⌋]
// (barrettRange, with exact big integers). The rule applies only to
// this data flow: the subtrahend the VPMULUDQ by a constant q of the
// low dword of a lane t below 2^32 that is the VPMADD52HUQ of the very
// lane p (below 2^52) by a constant v below 2^52 into a zero
// accumulator.

// provHi52 marks hi52(x·c) into a zero accumulator; provMulU the
// unsigned product of a lane x below 2^32 (read as its low dword) and c.
const (
	provHi52 byte = iota + 10
	provMulU
)

// barrett computes x − y of 64-bit lanes by the Barrett identity if y
// is q·hi52(x·v) (see above); ok is false otherwise.
func barrett(x, y *lane) (lo, hi int64, ok bool) {
	if y.prov == nil || y.prov.kind != provMulU {
		return 0, 0, false
	}
	t := y.prov.x
	if t.prov == nil || t.prov.kind != provHi52 || t.prov.x != x {
		return 0, 0, false
	}
	if x.wrap || x.lo < 0 || x.hi >= 1<<52 || y.prov.c <= 0 || t.prov.c <= 0 || t.prov.c >= 1<<52 {
		return 0, 0, false
	}
	v, q := t.prov.c, y.prov.c
	lo, hi, ok = barrettRange(x.lo, x.hi, v, q)
	if ok && x.lo == x.hi { // a concrete run: the exact value, within the range
		h, l := bits.Mul64(uint64(x.lo), uint64(v))
		r := x.lo - q*int64(h<<12|l>>52)
		if r < lo || r > hi {
			return 0, 0, false
		}
		return r, r, true
	}
	return lo, hi, ok
}

// barrettRange bounds p − q·⌊p·v/2^52⌋ for p in [pl, ph]; ok is false
// unless the bound fits a 64-bit natural form narrower than 2^63.
func barrettRange(pl, ph, v, q int64) (lo, hi int64, ok bool) {
	B := new(big.Int).Lsh(big.NewInt(1), 52)
	d := new(big.Int).Mul(big.NewInt(q), big.NewInt(v))
	d.Sub(d, B)
	qm := new(big.Int).Mul(big.NewInt(q), new(big.Int).Sub(B, big.NewInt(1))) // q > 0: max q·m; min is 0
	xd := [2]*big.Int{new(big.Int).Mul(big.NewInt(pl), d), new(big.Int).Mul(big.NewInt(ph), d)}
	mx, mn := xd[0], xd[1]
	if mx.Cmp(mn) < 0 {
		mx, mn = mn, mx
	}
	l := new(big.Int).Neg(mx)
	l.Add(l, B).Sub(l, big.NewInt(1)) // ⌈−mx/2^52⌉ = ⌊(−mx + 2^52 − 1)/2^52⌋
	l.Rsh(l, 52)
	h := new(big.Int).Sub(qm, mn)
	h.Rsh(h, 52) // Rsh of a big.Int floors
	if !l.IsInt64() || !h.IsInt64() {
		return 0, 0, false
	}
	lo, hi = l.Int64(), h.Int64()
	return lo, hi, hi >= lo && hi-lo < 1<<62
}

// hi52Of is the provenance of a VPMADD52HUQ of x and y into acc: hi52
// of the non-constant one by the constant, if acc is zero, the constant
// in (0, 2^52) and the other lane no wrapping product, within [0, 2^52)
// (both constants, in a concrete run: x is the multiplied lane).
func hi52Of(op string, x, y, acc *lane) (*prov, bool) {
	if op != "VPMADD52HUQ" || !acc.isConst() || acc.lo != 0 || !x.isConst() && !y.isConst() {
		return nil, false
	}
	if x.isConst() && !y.isConst() {
		x, y = y, x
	}
	if x.wrap || y.wrap || x.lo < 0 || x.hi >= 1<<52 || y.lo <= 0 || y.lo >= 1<<52 {
		return nil, false
	}
	return &prov{kind: provHi52, x: x, c: y.lo}, true
}

// mulUOf is the provenance of a VPMULUDQ's 64-bit lane whose operand
// dwords are xs (the low dword of a lane t, provHi52 within
// [0, 2^32)) and the constant dword q (ys and its lane): t·q.
func mulUOf(xs, ys []cell, xl, ql *lane) (*prov, bool) {
	if len(xs) != 4 || len(ys) != 4 {
		return nil, false
	}
	if !ql.isConst() && xl.isConst() {
		xs, ql = ys, xl
	}
	t := xs[0].l
	for k, c := range xs {
		if c.l != t || c.w != 8 || int(c.k) != k {
			return nil, false
		}
	}
	if t.prov == nil || t.prov.kind != provHi52 || t.wrap || t.lo < 0 || t.hi >= 1<<32 || !ql.isConst() {
		return nil, false
	}
	c, _, _ := unsignedView(32, ql.lo, ql.lo)
	return &prov{kind: provMulU, x: t, c: c}, true
}

// provLow32 marks a 64-bit lane whose low dword is the integer in
// [prov.lo, prov.hi] (the lane's own bound stays the whole qword's):
// mul=ifma2's p + lo52(t·(2^52 − q)).
const provLow32 byte = 20

// ifma2Of is the provenance of a VPMADD52LUQ into acc of t and a
// constant c (x, y in either order): if t is hi52(p·v) of the very lane
// p = acc and c in (0, 2^52), the sum p + ((t·c) mod 2^52) (below 2^53,
// no wrap) is ≡ p − q·t (mod 2^52) with q = 2^52 − c, so its low dword
// is the remainder r = p − q·t of the Barrett rule, in barrettRange's
// bound when that fits 32 bits.
func ifma2Of(op string, x, y, acc *lane) (lo, hi int64, ok bool) {
	if op != "VPMADD52LUQ" || !y.isConst() && !x.isConst() {
		return 0, 0, false
	}
	if x.isConst() && !y.isConst() || x.prov == nil {
		x, y = y, x
	}
	t := x
	if t.prov == nil || t.prov.kind != provHi52 || t.prov.x != acc || !y.isConst() || y.wrap {
		return 0, 0, false
	}
	c := y.lo
	if c <= 0 || c >= 1<<52 || acc.wrap || acc.lo < 0 || acc.hi >= 1<<52 || t.lo < 0 || t.hi >= 1<<52 {
		return 0, 0, false
	}
	lo, hi, ok = barrettRange(acc.lo, acc.hi, t.prov.c, 1<<52-c)
	if !ok || !fits(32, lo, hi) {
		return 0, 0, false
	}
	return lo, hi, true
}
