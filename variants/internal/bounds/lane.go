package bounds

import (
	"fmt"
	"strconv"
)

// A lane is the abstract value of one integer lane of a vector register
// or of memory: the set of its bit patterns, as the interval [lo, hi] of
// integers in its natural form (lo >= -2^(b-1), hi < 2^b, hi-lo < 2^b
// for a b-bit lane; the bit pattern is the integer mod 2^b), and, where
// known, the function e of one base variable sym (an input lane or a
// lane the analysis could not relate to others) that computes it, so
// that two lanes computed from the same variable are combined by
// enumerating the variable (see combine). Lanes are never mutated.
type lane struct {
	lo, hi int64
	sym    int32 // the base variable; -1: a constant
	e      *node // the lane as a function of sym's variable; nil: the variable itself
	// wrap marks a wrapping low product (VPMULLW, VPMULLD, a low part of
	// a wide product): any bit pattern, whose only sound use is as an
	// operand of a multiply whose high half cancels it (Montgomery), or
	// either side of Shoup's difference (see shoup).
	wrap bool
	// trunc marks a wrapping lane that is a qword's left shift whose
	// bits left the 64 (the packing's truncation, see truncatingShift):
	// read as a value, or stored other than to an encoding, it is an
	// overflow.
	trunc bool
	src   int32 // the instruction that produced it; -1: input or constant
	prov  *prov // how a product computed it, for the Shoup rule; nil: unknown
}

func (l *lane) String() string {
	s := fmt.Sprintf("[%d, %d]", l.lo, l.hi)
	switch {
	case l.trunc:
		s += " (a left shift that overflowed 64 bits)"
	case l.wrap:
		s += " (wrapping low product)"
	}
	return s
}

func (l *lane) isConst() bool { return l.lo == l.hi && !l.wrap }

// limits of a b-bit lane's natural form.
func smin(b uint) int64 { return -(int64(1) << (b - 1)) }
func smax(b uint) int64 { return int64(1)<<(b-1) - 1 }
func umax(b uint) int64 {
	if b >= 64 {
		return 1<<63 - 1
	}
	return int64(1)<<b - 1
}

// fits reports whether [lo, hi] is a natural form of b-bit lanes.
func fits(b uint, lo, hi int64) bool {
	return lo >= smin(b) && hi <= umax(b) && hi-lo >= 0 && uint64(hi-lo) <= uint64(umax(b))
}

// signed returns the interval of l read as signed b-bit integers; ok is
// false if l straddles 2^(b-1) (then the interval is the whole range).
func signedView(b uint, lo, hi int64) (int64, int64, bool) {
	switch {
	case hi <= smax(b):
		return lo, hi, true
	case lo > smax(b):
		return lo - (int64(1) << b), hi - (int64(1) << b), true
	}
	return smin(b), smax(b), false
}

// unsignedView is signedView for unsigned reads: ok is false if l
// straddles 0.
func unsignedView(b uint, lo, hi int64) (int64, int64, bool) {
	switch {
	case lo >= 0:
		return lo, hi, true
	case hi < 0 && b < 64:
		return lo + int64(1)<<b, hi + int64(1)<<b, true
	}
	return 0, umax(b), false
}

// A node is an expression of one base variable x over b-bit lanes.
type node struct {
	op   string
	c    int64 // the constant of a const node
	a, y *node // the operands of an op
	b    uint
	key  string
	dep  int
	// wrapped marks a mullo whose product does not fit: a wrapping low
	// product.
	wrapped bool
}

// xNode is the base variable itself.
var xNode = &node{op: "x", key: "x"}

func constNode(c int64) *node { return &node{op: "const", c: c, key: "c" + strconv.FormatInt(c, 10)} }

func mkNode(op string, b uint, c int64, a, y *node) *node {
	n := &node{op: op, b: b, c: c, a: a, y: y}
	n.key = op + strconv.Itoa(int(b)) + "(" + a.key + "," + y.key + ")"
	n.dep = 1 + max(a.dep, y.dep)
	return n
}

// evalErr is why an evaluation failed: an overflow or a wrapping low
// product used as a value.
type evalErr struct{ why string }

// eval computes n at x: the natural value and whether it is a wrapping
// low product; err is set on an overflow.
func (n *node) eval(x int64) (int64, bool, *evalErr) {
	switch n.op {
	case "x":
		return x, false, nil
	case "const":
		return n.c, false, nil
	}
	av, aw, err := n.a.eval(x)
	if err != nil {
		return 0, false, err
	}
	yv, yw, err := n.y.eval(x)
	if err != nil {
		return 0, false, err
	}
	r, ok := apply(n.op, n.b, av, yv)
	if !ok {
		return 0, false, &evalErr{fmt.Sprintf("%s of %d and %d overflows %d bits", n.op, av, yv, n.b)}
	}
	if (aw || yw) && !multiplies[n.op] {
		return 0, false, &evalErr{fmt.Sprintf("%s reads a wrapping low product as a value", n.op)}
	}
	return r, n.op == "mullo" && !fits(n.b, mulExact(n.b, av, yv), mulExact(n.b, av, yv)), nil
}

// multiplies are the ops that may read a wrapping low product.
var multiplies = map[string]bool{"mullo": true, "mulhi": true, "mulhu": true, "mulhrs": true}

func mulExact(b uint, x, y int64) int64 {
	xs, _, _ := signedView(b, x, x)
	ys, _, _ := signedView(b, y, y)
	return xs * ys
}

// apply computes op on two b-bit natural values; ok is false on an
// overflow of an add, subtract or left shift.
func apply(op string, b uint, x, y int64) (int64, bool) {
	xs, _, _ := signedView(b, x, x)
	ys, _, _ := signedView(b, y, y)
	xu, _, _ := unsignedView(b, x, x)
	yu, _, _ := unsignedView(b, y, y)
	switch op {
	case "add":
		r := x + y
		if !fits(b, r, r) {
			r = xs + ys
		}
		return r, fits(b, r, r)
	case "sub":
		r := x - y
		if !fits(b, r, r) {
			r = xs - ys
		}
		return r, fits(b, r, r)
	case "mullo":
		return wrapSigned(b, xs*ys), true
	case "mulhi":
		return (xs * ys) >> b, true
	case "mulhu":
		return int64(uint64(xu) * uint64(yu) >> b), true
	case "mulhrs":
		return ((xs*ys)>>14 + 1) >> 1, true
	case "sra":
		return xs >> uint(y), true
	case "srl":
		return xu >> uint(y), true
	case "sll":
		r := xs << uint(y)
		return r, fits(b, r, r)
	case "minu":
		return min(xu, yu), true
	case "maxu":
		return max(xu, yu), true
	case "cmpgt":
		return mask(xs > ys), true
	case "cmplt":
		return mask(xs < ys), true
	case "cmple":
		return mask(xs <= ys), true
	case "cmpltu":
		return mask(xu < yu), true
	case "cmpleu":
		return mask(xu <= yu), true
	case "cmpeq":
		return mask(xu == yu), true
	case "cmpne":
		return mask(xu != yu), true
	case "andn":
		return wrapSigned(b, ^xu&yu), true
	case "satu", "sats":
		l, h := satRange(op == "satu", y)
		return min(max(xs, l), h), true
	case "gather":
		return wrapSigned(b, gatherBytes(b, xu, y)), true
	case "abs":
		return max(xs, -xs), true
	case "mins":
		return min(xs, ys), true
	case "maxs":
		return max(xs, ys), true
	case "and":
		return wrapSigned(b, xu&yu), true
	case "or":
		return wrapSigned(b, xu|yu), true
	case "part": // y is (shift << 8) | bits: the bits of x from shift
		s, w := uint(y>>8), uint(y&0xff)
		return x >> s & (int64(1)<<w - 1), true
	}
	panic("bounds: unknown op " + op)
}

// gatherBytes is the b-bit lane whose byte k is byte sel(k) of p (4
// bits of sel per byte, 0xf: zero), as an unsigned value.
func gatherBytes(b uint, p, sel int64) int64 {
	var v int64
	for k := uint(0); k < b/8; k++ {
		if j := sel >> (4 * k) & 0xf; j != 0xf {
			v |= (p >> (8 * j) & 0xff) << (8 * k)
		}
	}
	return v
}

// mask is a compare's lane: −1 if c, else 0.
func mask(c bool) int64 {
	if c {
		return -1
	}
	return 0
}

func wrapSigned(b uint, x int64) int64 {
	if b >= 64 {
		return x
	}
	s := 64 - b
	return x << s >> s
}
