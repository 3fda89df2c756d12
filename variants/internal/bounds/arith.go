package bounds

import (
	"fmt"
	"math/bits"
	"sync"
)

// ivOp computes op on the intervals of b-bit lanes x and y by interval
// arithmetic (sound for any correlation): the result's natural interval,
// whether it is a wrapping low product, and why it failed ("" if not).
func ivOp(op string, b uint, x, y *lane) (lo, hi int64, wrap bool, why string) {
	xs, xS, xsok := signedView(b, x.lo, x.hi)
	ys, yS, ysok := signedView(b, y.lo, y.hi)
	xu, xU, xuok := unsignedView(b, x.lo, x.hi)
	yu, yU, yuok := unsignedView(b, y.lo, y.hi)
	if x.wrap && !y.wrap && y.lo == y.hi && (op == "sll" || op == "sra" || op == "srl") {
		return wrapShift(op, b, y.lo)
	}
	if (x.wrap || y.wrap) && op == "or" { // bits merged into an encoding: any pattern
		return smin(b), smax(b), true, ""
	}
	if (x.wrap || y.wrap) && !multiplies[op] {
		return 0, 0, false, op + " reads a wrapping low product as a value"
	}
	signed := func() string {
		if !xsok || !ysok {
			return fmt.Sprintf("%s reads a lane in [%d, %d] as signed %d-bit: it spans 2^%d", op, pick(xsok, y, x).lo, pick(xsok, y, x).hi, b, b-1)
		}
		return ""
	}
	unsigned := func() string {
		if !xuok || !yuok {
			return fmt.Sprintf("%s reads a lane in [%d, %d] as unsigned %d-bit: it spans 0", op, pick(xuok, y, x).lo, pick(xuok, y, x).hi, b)
		}
		return ""
	}
	switch op {
	case "add", "sub":
		for _, c := range [][4]int64{{x.lo, x.hi, y.lo, y.hi}, {xs, xS, ys, yS}, {xu, xU, yu, yU}} {
			l, h := c[0]+c[2], c[1]+c[3]
			if op == "sub" {
				l, h = c[0]-c[3], c[1]-c[2]
			}
			if fits(b, l, h) {
				return l, h, false, ""
			}
		}
		return 0, 0, false, fmt.Sprintf("%s of [%d, %d] and [%d, %d] overflows %d bits", op, x.lo, x.hi, y.lo, y.hi, b)
	case "mullo":
		l, h := corners(xs, xS, ys, yS, func(p, q int64) int64 { return p * q })
		if fits(b, l, h) {
			return l, h, false, ""
		}
		return smin(b), smax(b), true, ""
	case "mulhi", "mulhrs":
		if w := signed(); w != "" {
			return 0, 0, false, w
		}
		f := func(p, q int64) int64 { return (p * q) >> b }
		if op == "mulhrs" {
			f = func(p, q int64) int64 { return ((p*q)>>14 + 1) >> 1 }
		}
		l, h := corners(xs, xS, ys, yS, f)
		return l, h, false, ""
	case "mulhu":
		if w := unsigned(); w != "" {
			return 0, 0, false, w
		}
		l, h := corners(xu, xU, yu, yU, func(p, q int64) int64 { return int64(uint64(p) * uint64(q) >> b) })
		return l, h, false, ""
	case "sra":
		if !xsok {
			return 0, 0, false, signed()
		}
		return xs >> uint(y.lo), xS >> uint(y.lo), false, ""
	case "srl":
		if !xuok {
			return 0, 0, false, unsigned()
		}
		return xu >> uint(y.lo), xU >> uint(y.lo), false, ""
	case "sll":
		l, h := x.lo<<uint(y.lo), x.hi<<uint(y.lo)
		if y.lo < 63 && fits(b, l, h) && l>>uint(y.lo) == x.lo && h>>uint(y.lo) == x.hi {
			return l, h, false, ""
		}
		if truncatingShift(b, x.lo) {
			return smin(b), smax(b), true, ""
		}
		return 0, 0, false, fmt.Sprintf("sll of [%d, %d] by %d overflows %d bits", x.lo, x.hi, y.lo, b)
	case "cmpgt":
		if w := signed(); w != "" {
			return 0, 0, false, w
		}
		switch {
		case xs > yS:
			return -1, -1, false, ""
		case xS <= ys:
			return 0, 0, false, ""
		}
		return -1, 0, false, ""
	case "cmpltu", "cmpleu": // either answer where a lane spans 0
		if !xuok || !yuok {
			return -1, 0, false, ""
		}
		return cmpRange(op == "cmpleu", xu, xU, yu, yU)
	case "cmplt", "cmple":
		if !xsok || !ysok {
			return -1, 0, false, ""
		}
		return cmpRange(op == "cmple", xs, xS, ys, yS)
	case "cmpeq", "cmpne":
		t, f := int64(-1), int64(0)
		if op == "cmpne" {
			t, f = 0, -1
		}
		// equal bit patterns: equal unsigned values, and equal signed
		// ones; disjoint in either view, never equal
		switch {
		case xu == xU && yu == yU && xu == yu && xuok && yuok:
			return t, t, false, ""
		case xuok && yuok && (xU < yu || yU < xu), xsok && ysok && (xS < ys || yS < xs):
			return f, f, false, ""
		}
		return -1, 0, false, ""
	case "abs":
		if w := signed(); w != "" {
			return 0, 0, false, w
		}
		switch {
		case xs >= 0:
			return xs, xS, false, ""
		case xS <= 0:
			return -xS, -xs, false, ""
		}
		return 0, max(-xs, xS), false, ""
	case "mins", "maxs":
		if w := signed(); w != "" {
			return 0, 0, false, w
		}
		if op == "mins" {
			return min(xs, ys), min(xS, yS), false, ""
		}
		return max(xs, ys), max(xS, yS), false, ""
	case "minu", "maxu":
		if w := unsigned(); w != "" {
			return 0, 0, false, w
		}
		if op == "minu" {
			return min(xu, yu), min(xU, yU), false, ""
		}
		return max(xu, yu), max(xU, yU), false, ""
	case "or":
		if !xuok || !yuok {
			return 0, umax(b), false, ""
		}
		m := max(xU, yU)
		p := int64(1)
		for p <= m {
			p <<= 1
		}
		return max(xu, yu), min(p-1, umax(b)), false, ""
	case "part":
		s, w := uint(y.lo>>8), uint(y.lo&0xff)
		m := int64(1)<<w - 1
		if x.lo>>(s+w) == x.hi>>(s+w) {
			return x.lo >> s & m, x.hi >> s & m, false, ""
		}
		return 0, m, false, ""
	case "and":
		if !xuok && !yuok {
			return 0, umax(b), false, ""
		}
		if l, h, ok := lowMask(b, x, y); ok {
			return l, h, false, ""
		}
		hi := min(pick(xuok, x, nil).hiU(b), pick(yuok, y, nil).hiU(b))
		return 0, hi, false, ""
	case "satu", "sats": // x clamped to y bits, unsigned or signed
		if !xsok {
			return 0, 0, false, signed()
		}
		l, h := satRange(op == "satu", y.lo)
		return min(max(xs, l), h), min(max(xS, l), h), false, ""
	case "gather": // monotone where the repeated bytes are constant
		if l, h, ok := gatherRange(b, xu, xU, y.lo, xuok); ok {
			return l, h, false, ""
		}
		return 0, umax(b), false, ""
	case "andn": // ^x & y: at most y
		return 0, pick(yuok, y, nil).hiU(b), false, ""
	}
	panic("bounds: unknown op " + op)
}

// lowMask bounds x & (2^k − 1) (or the mask first) where the unsigned
// values of x share their bits above k: then it is x less a constant,
// [x & m, X & m].
func lowMask(b uint, x, y *lane) (int64, int64, bool) {
	if x.isConst() && !y.isConst() {
		x, y = y, x
	}
	m := y.lo
	xu, xU, ok := unsignedView(b, x.lo, x.hi)
	if !y.isConst() || !ok || m <= 0 || m&(m+1) != 0 {
		return 0, 0, false
	}
	k := uint(bits.Len64(uint64(m)))
	if xu>>k != xU>>k {
		return 0, 0, false
	}
	return xu & m, xU & m, true
}

// gatherRange bounds gather(p) for p in [lo, hi]: with destination
// bytes 0..m−1 p's own and every other destination byte zero or a byte
// of p at m or above, where those bytes of p (p >> 8m) are the same for
// all of them gather(p) is p mod 2^(8m) plus a constant, monotone:
// [gather(lo), gather(hi)]. ok is false if no m > 0 has that form.
func gatherRange(b uint, lo, hi, sel int64, ok bool) (int64, int64, bool) {
	if !ok {
		return 0, 0, false
	}
	for m := b / 8; m > 0; m-- {
		form := true
		for k := uint(0); k < b/8; k++ {
			j := sel >> (4 * k) & 0xf
			if k < m && j != int64(k) || k >= m && j != 0xf && j < int64(m) {
				form = false
			}
		}
		if form && lo>>(8*m) == hi>>(8*m) {
			return gatherBytes(b, lo, sel), gatherBytes(b, hi, sel), true
		}
	}
	return 0, 0, false
}

// truncatingShift reports whether a left shift of a b-bit lane from lo
// that does not fit is the bit packing's intended truncation (a qword of
// non-negative packed fields shifted up, the bits beyond 64 dropped and
// taken again by a right shift): the result is then any pattern, marked
// wrapping and truncated (lane.trunc), whose only uses stay ORs, byte
// moves and stores to an encoding's bytes; any other use is an overflow
// (combine, outputs).
func truncatingShift(b uint, lo int64) bool { return b == 64 && lo >= 0 }

// satRange is the range a saturation to k bits clamps to.
func satRange(unsigned bool, k int64) (int64, int64) {
	if unsigned {
		return 0, int64(1)<<k - 1
	}
	return -(int64(1) << (k - 1)), int64(1)<<(k-1) - 1
}

// cmpRange is a compare x < y (x ≤ y if le) of the intervals [x, X] and
// [y, Y]: −1 where it holds for all of them, 0 where for none, else
// either.
func cmpRange(le bool, x, X, y, Y int64) (lo, hi int64, wrap bool, why string) {
	switch {
	case X < y || le && X == y:
		return -1, -1, false, ""
	case x > Y || !le && x == Y:
		return 0, 0, false, ""
	}
	return -1, 0, false, ""
}

// wrapShift is a shift by the constant s of a wrapping low product (any
// b-bit pattern): a left shift is again any pattern (still wrapping: its
// only uses stay the multiplies and shifts), a right shift of any
// pattern is bounded whatever it was: [−2^(b−1−s), 2^(b−1−s) − 1]
// arithmetically, [0, 2^(b−s) − 1] logically (the 16-bit Montgomery
// quotient sign-extended in 32-bit lanes, ⌊lo(x·q⁻¹)·2^16⌋ >> 16).
func wrapShift(op string, b uint, s int64) (lo, hi int64, wrap bool, why string) {
	switch {
	case s <= 0 || s >= int64(b):
		return 0, 0, false, fmt.Sprintf("%s of a wrapping low product by %d", op, s)
	case op == "sll":
		return smin(b), smax(b), true, ""
	case op == "sra":
		return smin(b) >> s, smax(b) >> s, false, ""
	}
	return 0, umax(b) >> s, false, ""
}

func pick(ok bool, a, b *lane) *lane {
	if ok {
		return a
	}
	return b
}

// hiU is the largest unsigned value of l (nil: any).
func (l *lane) hiU(b uint) int64 {
	if l == nil {
		return umax(b)
	}
	_, h, _ := unsignedView(b, l.lo, l.hi)
	return h
}

// corners bounds f, monotone in each argument, on [a, A] × [c, C].
func corners(a, A, c, C int64, f func(p, q int64) int64) (int64, int64) {
	v := []int64{f(a, c), f(a, C), f(A, c), f(A, C)}
	lo, hi := v[0], v[0]
	for _, x := range v[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// maxEnum is the largest range of a base variable that combine
// enumerates (one free 16-bit input and some slack).
const maxEnum = 1 << 17

type enumKey struct {
	key    string
	lo, hi int64
}

type enumVal struct {
	lo, hi int64
	err    *evalErr
}

var enumCache sync.Map // enumKey -> enumVal

// enumerate evaluates n at every x in [lo, hi] (at most maxEnum values).
func enumerate(n *node, lo, hi int64) enumVal {
	k := enumKey{n.key, lo, hi}
	if v, ok := enumCache.Load(k); ok {
		return v.(enumVal)
	}
	out := enumVal{lo: 1<<63 - 1, hi: -1 << 63}
	for x := lo; x <= hi; x++ {
		v, _, err := n.eval(x)
		if err != nil {
			out = enumVal{err: &evalErr{fmt.Sprintf("at input %d: %s", x, err.why)}}
			break
		}
		out.lo, out.hi = min(out.lo, v), max(out.hi, v)
	}
	enumCache.Store(k, out)
	return out
}

// hasWrap reports whether n reads a wrapping low product (then interval
// arithmetic is used: the high half of the product by q is bounded
// whatever the low product is).
func (n *node) hasWrap() bool {
	if n.op == "x" || n.op == "const" {
		return false
	}
	return n.wrapped || n.a.hasWrap() || n.y.hasWrap()
}

// evalIv bounds n over x in [lo, hi] by interval arithmetic at every
// node (sound; tight when the range is small).
func evalIv(n *node, lo, hi int64) (*lane, string) {
	switch n.op {
	case "x":
		return &lane{lo: lo, hi: hi}, ""
	case "const":
		return &lane{lo: n.c, hi: n.c}, ""
	}
	a, why := evalIv(n.a, lo, hi)
	if why != "" {
		return nil, why
	}
	y, why := evalIv(n.y, lo, hi)
	if why != "" {
		return nil, why
	}
	if a.lo == a.hi && y.lo == y.hi && !a.wrap && !y.wrap { // exact
		r, ok := apply(n.op, n.b, a.lo, y.lo)
		if !ok {
			return nil, fmt.Sprintf("%s of %d and %d overflows %d bits", n.op, a.lo, y.lo, n.b)
		}
		return &lane{lo: r, hi: r, wrap: n.op == "mullo" && !fits(n.b, mulExact(n.b, a.lo, y.lo), mulExact(n.b, a.lo, y.lo))}, ""
	}
	l, h, wrap, why := ivOp(n.op, n.b, a, y)
	if why != "" {
		return nil, why
	}
	if rl, rh, ok := n.remainder(); ok {
		if sl, sh, sok := signedView(n.b, l, h); sok {
			l, h = max(sl, rl), min(sh, rh)
		}
	}
	return &lane{lo: l, hi: h, wrap: wrap}, ""
}

// remainder recognizes n = A − ((A + c) >> s << s) (sra or srl, c a
// constant, possibly absent) and returns the interval [−c, 2^s − 1 − c]
// of its bit patterns read as signed: whatever A is, with T = A + c mod
// 2^b and the shift's floor quotient of T read signed (sra) or unsigned
// (srl), T − (T >> s << s) ≡ T mod 2^s in [0, 2^s − 1] (mod 2^b), and n
// ≡ that − c. It is intersected with the interval arithmetic's bound of
// the subtraction, which also checks that nothing overflows, so the
// identity only tightens a bound (ok is false if n is not of this form
// or the interval does not fit signed b-bit lanes).
func (n *node) remainder() (lo, hi int64, ok bool) {
	if n.op != "sub" || n.y.op != "sll" || n.y.y.op != "const" {
		return 0, 0, false
	}
	q := n.y.a
	if (q.op != "sra" && q.op != "srl") || q.y.op != "const" || q.y.c != n.y.y.c || q.b != n.b || n.y.b != n.b {
		return 0, 0, false
	}
	s := n.y.y.c
	t, c := q.a, int64(0)
	if t.op == "add" && t.b == n.b {
		switch {
		case t.y.op == "const" && t.a.key == n.a.key:
			c = t.y.c
		case t.a.op == "const" && t.y.key == n.a.key:
			c = t.a.c
		default:
			return 0, 0, false
		}
	} else if t.key != n.a.key {
		return 0, 0, false
	}
	if s < 1 || s >= int64(n.b) {
		return 0, 0, false
	}
	c, _, _ = signedView(n.b, c, c)
	lo, hi = -c, int64(1)<<s-1-c
	return lo, hi, lo >= smin(n.b) && hi <= smax(n.b)
}

// maxPieces bounds the pieces bisect splits a range into.
const maxPieces = 2048

type piece struct {
	lo, hi int64
	r      *lane
	why    string
}

// bisect bounds n over x in [lo, hi], a range too large to enumerate, by
// branch and bound: it splits the pieces that fail, hold the least lower
// bound or the greatest upper bound, until those are single values or
// maxPieces is reached; the union of the pieces' bounds is sound at any
// point. A failure on a single value is a witness; on a wider piece it
// is what the analysis could not exclude.
func bisect(n *node, lo, hi int64) enumVal {
	k := enumKey{n.key, lo, hi}
	if v, ok := enumCache.Load(k); ok {
		return v.(enumVal)
	}
	ev := func(l, h int64) piece {
		r, why := evalIv(n, l, h)
		return piece{lo: l, hi: h, r: r, why: why}
	}
	ps := []piece{ev(lo, hi)}
	for step := 0; len(ps) < maxPieces; step++ {
		i := pickPiece(ps, step)
		if i < 0 {
			break
		}
		p := ps[i]
		mid := p.lo + (p.hi-p.lo)/2
		ps[i] = ev(p.lo, mid)
		ps = append(ps, ev(mid+1, p.hi))
	}
	out := enumVal{lo: 1<<63 - 1, hi: -1 << 63}
	for _, p := range ps {
		if p.why != "" {
			out = enumVal{err: &evalErr{fmt.Sprintf("for inputs in [%d, %d]: %s", p.lo, p.hi, p.why)}}
			break
		}
		if p.r.wrap {
			out = enumVal{err: &evalErr{"the result is a wrapping low product"}}
			break
		}
		out.lo, out.hi = min(out.lo, p.r.lo), max(out.hi, p.r.hi)
	}
	enumCache.Store(k, out)
	return out
}

// pickPiece returns the piece to split next: a failing one, else
// alternately the one with the least lower or the greatest upper bound;
// -1 if that one is a single value.
func pickPiece(ps []piece, step int) int {
	for i, p := range ps {
		if p.why != "" || p.r.wrap {
			if p.hi > p.lo {
				return i
			}
			return -1 // a witness
		}
	}
	lo, hi := 0, 0
	for i, p := range ps {
		if p.r.lo < ps[lo].r.lo {
			lo = i
		}
		if p.r.hi > ps[hi].r.hi {
			hi = i
		}
	}
	order := []int{lo, hi}
	if step%2 == 1 {
		order = []int{hi, lo}
	}
	for _, i := range order {
		if ps[i].hi > ps[i].lo {
			return i
		}
	}
	return -1
}
