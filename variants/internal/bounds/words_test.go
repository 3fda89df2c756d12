package bounds

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// randWd returns an interval: a constant, a small range at 0 or at the
// top of the word, or a random one.
func randWd(rng *rand.Rand) wd {
	a, b := rng.Uint64(), rng.Uint64()
	switch rng.IntN(6) {
	case 0:
		return cwd(a)
	case 1:
		return wd{0, b >> rng.UintN(64)}
	case 2:
		return wd{math.MaxUint64 - b>>rng.UintN(64), math.MaxUint64}
	case 3:
		return wd{0, 1}
	case 4:
		return anyWd
	}
	return wd{min(a, b), max(a, b)}
}

// pickW returns a member of x: an end or a random one.
func pickW(rng *rand.Rand, x wd) uint64 {
	switch rng.IntN(3) {
	case 0:
		return x.lo
	case 1:
		return x.hi
	}
	if x == anyWd {
		return rng.Uint64()
	}
	return x.lo + rng.Uint64N(x.hi-x.lo+1)
}

// TestWordOpsSound: every word operation's interval contains the
// operation on every member tried (the ends and random members of random
// and extreme intervals), carries included; widening contains the join.
func TestWordOpsSound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 64))
	for i := 0; i < 200000; i++ {
		x, y, c := randWd(rng), randWd(rng), []wd{cwd(0), cwd(1), {0, 1}}[rng.IntN(3)]
		s := uint(rng.UintN(64))
		sum, carry := addW(x, y, c)
		dif, borrow := subW(x, y, c)
		hi, lo := mulW(x, y)
		for k := 0; k < 4; k++ {
			u, v, ci := pickW(rng, x), pickW(rng, y), pickW(rng, c)
			check := func(what string, got wd, want uint64) {
				if !has(got, want) {
					t.Fatalf("%s of %#x, %#x (carry %d, shift %d) = %#x outside %v (x %v, y %v, c %v)", what, u, v, ci, s, want, got, x, y, c)
				}
			}
			r, co := bits.Add64(u, v, ci)
			check("add", sum, r)
			check("carry", carry, co)
			r, bo := bits.Sub64(u, v, ci)
			check("sub", dif, r)
			check("borrow", borrow, bo)
			ph, pl := bits.Mul64(u, v)
			check("mul hi", hi, ph)
			check("mul lo", lo, pl)
			check("shl", shlW(x, s), u<<s)
			check("shr", shrW(x, s), u>>s)
			check("and", andW(x, y), u&v)
			check("or", orW(x, y), u|v)
			check("xor", xorW(x, y), u^v)
		}
		if w := widen(x, x.join(y)); !(w.lo <= min(x.lo, y.lo) && w.hi >= max(x.hi, y.hi)) {
			t.Fatalf("widen(%v, %v ∪ %v) = %v", x, x, y, w)
		}
	}
}

// TestWordOpsExact: on constants the operations are exact (the concrete
// runs of the generators' tests compare them with the generic code).
func TestWordOpsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 64))
	for i := 0; i < 10000; i++ {
		u, v := rng.Uint64(), rng.Uint64()
		s := uint(rng.UintN(64))
		hi, lo := mulW(cwd(u), cwd(v))
		sum, _ := addW(cwd(u), cwd(v), cwd(0))
		for _, w := range []wd{hi, lo, sum, shlW(cwd(u), s), shrW(cwd(u), s), andW(cwd(u), cwd(v)), orW(cwd(u), cwd(v)), xorW(cwd(u), cwd(v))} {
			if !w.isConst() {
				t.Fatalf("an operation on %#x, %#x is %v, not a constant", u, v, w)
			}
		}
	}
}
