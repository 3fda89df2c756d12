package bounds

// Shoup's product by a constant (ML-DSA's mul=shoup) on 32-bit lanes:
//
//	t = hi32(x·w′)           (VPMULDQ, its high half moved by a shuffle)
//	r = lo32(x·w) − lo32(t·q) (two VPMULLD, VPSUBD)
//
// Both low products wrap; their difference is the exact integer
// x·w − q·t when that integer is known to lie in a range narrower than
// 2^32. With m = x·w′ − 2^32·t ∈ [0, 2^32) (t is the floor of the signed
// 64-bit product over 2^32) and δ = q·w′ − 2^32·w, for every w, w′, q:
//
//	2^32·(x·w − q·t) = 2^32·x·w − q·(x·w′ − m) = q·m − x·δ,
//
// so x·w − q·t ∈ [⌈(min q·m − max x·δ)/2^32⌉, ⌊(max q·m − min x·δ)/2^32⌋]
// over m ∈ [0, 2^32) and x in its signed interval (shoupRange;
// TestShoupRange checks it against the instructions' semantics). The
// rule applies only to exactly this data flow: the subtrahend's
// multiplier t must be the high half of a VPMULDQ of the very lane x
// (the same lane object) that the minuend's VPMULLD multiplies, w, w′
// and q constants; any other shape stays a wrapping low product.

// A prov is how a lane was computed from one lane x and a constant c:
// provMul, the signed 64-bit product x·c (VPMULDQ); provHi, the high
// 32 bits of such a product x (c unused); provLo, the low 32 bits of
// x·c (VPMULLD).
type prov struct {
	kind   byte
	x      *lane
	c      int64
	lo, hi int64 // provLow32's bound of the low dword
}

// The kinds of prov.
const (
	provMul byte = iota + 1
	provHi
	provLo
)

// withProv returns a copy of l that records p.
func withProv(l *lane, p *prov) *lane {
	c := *l
	c.prov = p
	return &c
}

// constOperand returns the non-constant one of x and y and the other's
// signed 32-bit value, if one is an exact constant and neither a
// wrapping product; if both are constants (a concrete run), x is the
// multiplied lane.
func constOperand(x, y *lane) (*lane, int64, bool) {
	if !x.isConst() && !y.isConst() {
		return nil, 0, false
	}
	if x.isConst() && !y.isConst() {
		x, y = y, x
	}
	if x.wrap || y.wrap {
		return nil, 0, false
	}
	c, _, _ := signedView(32, y.lo, y.lo)
	return x, c, true
}

// shoup computes r − s of 32-bit lanes by the Shoup identity if r and s
// are its two low products (see the package's Shoup rule); ok is false
// otherwise.
func shoup(r, s *lane) (lo, hi int64, ok bool) {
	if r.prov == nil || s.prov == nil || r.prov.kind != provLo || s.prov.kind != provLo {
		return 0, 0, false
	}
	t := s.prov.x
	if t.prov == nil || t.prov.kind != provHi {
		return 0, 0, false
	}
	p := t.prov.x
	if p.prov == nil || p.prov.kind != provMul || p.prov.x != r.prov.x {
		return 0, 0, false
	}
	x := r.prov.x
	xl, xh, xok := signedView(32, x.lo, x.hi)
	if !xok {
		return 0, 0, false
	}
	w, wq, q := r.prov.c, p.prov.c, s.prov.c
	lo, hi, ok = shoupRange(xl, xh, w, wq, q)
	if !ok || !fits(32, lo, hi) {
		return 0, 0, false
	}
	if xl == xh { // a concrete run: the exact value, within the range
		v := xl*w - q*(xl*wq>>32)
		if v < lo || v > hi {
			return 0, 0, false
		}
		return v, v, true
	}
	return lo, hi, true
}

// shoupRange bounds x·w − q·⌊x·w′/2^32⌋ for x in [xl, xh] (signed 32-bit
// w, w′, q): see the Shoup rule. ok is false if a term could leave
// int64 (|q| or |δ| of 2^30 or more) or the range is 2^32 wide.
func shoupRange(xl, xh, w, wq, q int64) (lo, hi int64, ok bool) {
	const lim = 1 << 30
	d := q*wq - w<<32
	if q <= -lim || q >= lim || d <= -lim || d >= lim {
		return 0, 0, false
	}
	qm := [2]int64{0, q * (1<<32 - 1)}
	xd := [2]int64{xl * d, xh * d}
	lo = ceilDiv32(min(qm[0], qm[1]) - max(xd[0], xd[1]))
	hi = floorDiv32(max(qm[0], qm[1]) - min(xd[0], xd[1]))
	return lo, hi, hi-lo < 1<<32
}

func floorDiv32(v int64) int64 { return v >> 32 }
func ceilDiv32(v int64) int64  { return -((-v) >> 32) }
