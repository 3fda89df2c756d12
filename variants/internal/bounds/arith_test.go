package bounds

import (
	"math/rand/v2"
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
