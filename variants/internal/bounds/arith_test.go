package bounds

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// remainderNode is A − ((A + c) >> s << s) over 32-bit lanes, A the
// base variable, by op (sra or srl).
func remainderNode(op string, c, s int64) *node {
	t := mkNode("add", 32, 0, xNode, constNode(c))
	q := mkNode(op, 32, 0, t, constNode(s))
	return mkNode("sub", 32, 0, xNode, mkNode("sll", 32, 0, q, constNode(s)))
}

// TestRemainderSound: on random ranges of A, constants and shifts, the
// bound of A − ((A + c) >> s << s) by interval arithmetic with the
// remainder identity contains every value the hardware computes, and is
// the identity's [−c, 2^s − 1 − c] once the range covers a whole period.
func TestRemainderSound(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 400 {
		op := []string{"sra", "srl"}[i%2]
		s := 1 + r.Int64N(20)
		c := r.Int64N(1<<s) - 1<<(s-1)
		lo := r.Int64N(1<<24) - 1<<23
		if op == "srl" {
			lo = r.Int64N(1 << 24)
		}
		hi := lo + r.Int64N(3<<s)
		n := remainderNode(op, c, s)
		got, why := evalIv(n, lo, hi)
		if why != "" {
			t.Fatalf("%s c=%d s=%d over [%d, %d]: %s", op, c, s, lo, hi, why)
		}
		for x := lo; x <= hi; x++ {
			v, _, err := n.eval(x)
			if err != nil {
				t.Fatalf("%s c=%d s=%d at %d: %s", op, c, s, x, err.why)
			}
			if v < got.lo || v > got.hi {
				t.Fatalf("%s c=%d s=%d: value %d at %d outside the bound [%d, %d]", op, c, s, v, x, got.lo, got.hi)
			}
		}
		if hi-lo+1 >= 2<<s && (got.lo != -c || got.hi != 1<<s-1-c) {
			t.Fatalf("%s c=%d s=%d over [%d, %d]: bound [%d, %d], want [%d, %d]", op, c, s, lo, hi, got.lo, got.hi, -c, 1<<s-1-c)
		}
	}
}

// TestRemainderOnlyItsForm: the identity is not applied when the
// subtrahend's quotient is of another lane than the minuend, or the
// shifts differ (the bound stays the interval arithmetic's).
func TestRemainderOnlyItsForm(t *testing.T) {
	y := mkNode("add", 32, 0, xNode, constNode(1))
	other := mkNode("sub", 32, 0, y, mkNode("sll", 32, 0, mkNode("sra", 32, 0, xNode, constNode(4)), constNode(4)))
	shifts := mkNode("sub", 32, 0, xNode, mkNode("sll", 32, 0, mkNode("sra", 32, 0, xNode, constNode(4)), constNode(3)))
	for _, n := range []*node{other, shifts} {
		if _, _, ok := n.remainder(); ok {
			t.Errorf("%s: read as a remainder", n.key)
		}
	}
	if _, _, ok := remainderNode("sra", 7, 4).remainder(); !ok {
		t.Error("A − ((A + 7) >> 4 << 4) not read as a remainder")
	}
}

// TestPower2RoundBisected: Power2Round's low part r − ((r + 2^12 − 1) >>
// 13 << 13) over the canonical range of ML-DSA (too large to enumerate)
// is bounded by branch and bound to exactly [−(2^12 − 1), 2^12].
func TestPower2RoundBisected(t *testing.T) {
	got := bisect(remainderNode("srl", 1<<12-1, 13), 0, 8380416)
	if got.err != nil || got.lo != -(1<<12-1) || got.hi != 1<<12 {
		t.Fatalf("power2round low part: [%d, %d] (%v), want [-4095, 4096]", got.lo, got.hi, got.err)
	}
}

// TestOrPartCmpAbsSound: on random ranges of a 32-bit variable, the
// interval bound of the OR of two of its functions, of a 16-bit part
// of it, of a compare and of an absolute value contains every value the
// hardware computes (exhaustively).
func TestOrPartCmpAbsSound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 300 {
		lo := r.Int64N(1<<20) - 1<<19
		hi := lo + r.Int64N(1<<12)
		if i%2 == 0 {
			lo, hi = max(lo, 0), max(hi, 0)
		}
		c := r.Int64N(1 << 16)
		s := 1 + r.Int64N(15)
		ns := []*node{
			mkNode("or", 32, 0, mkNode("and", 32, 0, xNode, constNode(c)), mkNode("sll", 32, 0, xNode, constNode(s))),
			mkNode("or", 32, 0, xNode, constNode(c)),
			mkNode("part", 32, 0, xNode, constNode(16<<8|16)),
			mkNode("part", 32, 0, xNode, constNode(16)),
			mkNode("cmpgt", 32, 0, xNode, constNode(c-1<<15)),
			mkNode("abs", 32, 0, xNode, constNode(0)),
		}
		for _, n := range ns {
			got, why := evalIv(n, lo, hi)
			if why != "" {
				continue // no bound claimed
			}
			for x := lo; x <= hi; x++ {
				v, _, err := n.eval(x)
				if err != nil {
					t.Fatalf("%s at %d: %s", n.key, x, err.why)
				}
				lv, hv := got.lo, got.hi
				if v < lv || v > hv {
					// the same bit pattern in the other natural form
					w := v - 1<<32
					if v < 0 {
						w = v + 1<<32
					}
					if w < lv || w > hv {
						t.Fatalf("%s over [%d, %d]: value %d at %d outside [%d, %d]", n.key, lo, hi, v, x, lv, hv)
					}
				}
			}
		}
	}
}

// TestCompareAndSaturateSound: for random intervals of two independent
// lanes of 8, 16 and 32 bits (straddling 0 and 2^(b−1) among them), the
// interval bound of each compare predicate, VPANDN and the saturations of
// the packs contains every value the hardware computes on every pair of
// bit patterns within them (exhaustively over small intervals), and the
// hardware value is the predicate's: −1 or 0.
func TestCompareAndSaturateSound(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	ops := []string{"cmpeq", "cmpne", "cmplt", "cmple", "cmpltu", "cmpleu", "andn", "and", "satu", "sats"}
	for i := range 600 {
		b := []uint{8, 16, 32}[i%3]
		pick := func() (int64, int64) {
			lo := []int64{smin(b), -3, 0, smax(b) - 2, r.Int64N(umax(b)) - 1<<(b-2)}[r.IntN(5)]
			return lo, lo + r.Int64N(40)
		}
		xl, xh := pick()
		yl, yh := pick()
		for _, op := range ops {
			x, y := &lane{lo: xl, hi: xh}, &lane{lo: yl, hi: yh}
			if op == "satu" || op == "sats" {
				y = constLane(int64(b / 2))
			}
			lo, hi, _, why := ivOp(op, b, x, y)
			if why != "" {
				continue // no bound claimed
			}
			for xv := x.lo; xv <= x.hi; xv++ {
				for yv := y.lo; yv <= y.hi; yv++ {
					v, _ := apply(op, b, xv, yv)
					if strings.HasPrefix(op, "cmp") && v != 0 && v != -1 {
						t.Fatalf("%s/%d of %d and %d: %d, not a mask", op, b, xv, yv, v)
					}
					if !within(b, v, lo, hi) {
						t.Fatalf("%s/%d over [%d, %d] × [%d, %d]: %d at (%d, %d) outside [%d, %d]", op, b, xl, xh, y.lo, y.hi, v, xv, yv, lo, hi)
					}
				}
			}
		}
	}
}

// within reports whether the b-bit pattern v lies in [lo, hi] in either
// natural form.
func within(b uint, v, lo, hi int64) bool {
	u := v & umax(b)
	s := wrapSigned(b, v)
	return lo <= u && u <= hi || lo <= s && s <= hi
}

// TestPredicates: the EVEX predicates are the compares the hardware
// makes of (src1, src2): eq, lt, le, ne, nlt, nle.
func TestPredicates(t *testing.T) {
	for _, c := range []struct {
		p    uint64
		x, y int64
		want bool
	}{{0, 3, 3, true}, {1, 2, 3, true}, {1, 3, 3, false}, {2, 3, 3, true}, {4, 3, 3, false}, {4, 2, 3, true},
		{5, 3, 3, true}, {5, 2, 3, false}, {6, 4, 3, true}, {6, 3, 3, false}, {1, -1, 3, false}} {
		op, swap, ok := predicate(c.p, true)
		if !ok {
			t.Fatalf("predicate %d not modelled", c.p)
		}
		x, y := c.x, c.y
		if swap {
			x, y = y, x
		}
		if v, _ := apply(op, 32, x, y); (v == -1) != c.want {
			t.Errorf("predicate %d (unsigned) of %d, %d: %d, want %v", c.p, c.x, c.y, v, c.want)
		}
	}
	if _, _, ok := predicate(3, false); ok {
		t.Error("predicate 3 (false) modelled as a compare")
	}
}
