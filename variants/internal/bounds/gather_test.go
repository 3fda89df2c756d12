package bounds

import (
	"math/rand/v2"
	"testing"
)

// TestGatherSound: for random words and dwords of input bytes (up to
// three distinct ones, repeated or zero in any position), the gathered
// lane evaluated at the packed variable p is the lane the bytes make,
// within its bound, and the interval bound of the gather over random
// pieces of p (gatherRange) contains every value in them.
func TestGatherSound(t *testing.T) {
	r := rand.New(rand.NewPCG(12, 13))
	for i := range 300 {
		a := &analysis{deep: map[int32]bool{}}
		in := []*lane{a.newVar(-128, 127, false), a.newVar(-128, 127, false), a.newVar(-128, 127, false)}
		w := []int{2, 4}[i%2]
		cs := make([]cell, w)
		var order []int // the inputs in order of first appearance
		for k := range cs {
			j := r.IntN(4)
			if j == 3 || len(order) == maxGathered && !contains(order, j) {
				cs[k] = cell{l: zero, w: 1}
				continue
			}
			cs[k] = cell{l: in[j], w: 1}
			if !contains(order, j) {
				order = append(order, j)
			}
		}
		g := a.gather(cs, w)
		if len(order) == 0 {
			if g != nil {
				t.Fatalf("zero bytes gathered")
			}
			continue
		}
		if g == nil || a.vars[g.sym] != (Interval{0, 1<<(8*len(order)) - 1}) {
			t.Fatalf("pattern %v: not gathered over %d bytes", cs, len(order))
		}
		n := exprOf(g)
		for range 50 {
			vals := [3]int64{r.Int64N(256), r.Int64N(256), r.Int64N(256)}
			var p, want int64
			for o, j := range order {
				p |= vals[j] << (8 * o)
			}
			for k, c := range cs {
				for j := range in {
					if c.l == in[j] {
						want |= vals[j] << (8 * k)
					}
				}
			}
			got, _, err := n.eval(p)
			if err != nil || got&umax(uint(8*w)) != want&umax(uint(8*w)) || !within(uint(8*w), got, g.lo, g.hi) {
				t.Fatalf("pattern %d: at p = %#x: %#x (%v), want %#x within [%d, %d]", i, p, got, err, want, g.lo, g.hi)
			}
		}
		if n == xNode {
			continue
		}
		lo := r.Int64N(a.vars[g.sym].Hi + 1)
		if i%4 < 2 { // across a multiple of 2^8 or 2^16, where a repeated byte changes
			lo = max(0, lo>>(8*(1+i%4%2))<<(8*(1+i%4%2))-r.Int64N(150))
		}
		hi := min(lo+r.Int64N(300), a.vars[g.sym].Hi)
		iv, why := evalIv(n, lo, hi)
		if why != "" {
			t.Fatalf("gather over [%d, %d]: %s", lo, hi, why)
		}
		for p := lo; p <= hi; p++ {
			v, _, _ := n.eval(p)
			if !within(uint(8*w), v, iv.lo, iv.hi) {
				t.Fatalf("gather %s over [%d, %d]: %d at %d outside [%d, %d]", n.key, lo, hi, v, p, iv.lo, iv.hi)
			}
		}
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestLowMaskSound: x & (2^k − 1) by interval arithmetic contains every
// value on random intervals, and is exact where x's high bits agree.
func TestLowMaskSound(t *testing.T) {
	r := rand.New(rand.NewPCG(14, 15))
	for range 500 {
		k := 1 + r.IntN(20)
		m := int64(1)<<k - 1
		lo := r.Int64N(1 << 24)
		hi := lo + r.Int64N(1<<uint(r.IntN(k+2)))
		l, h, _, why := ivOp("and", 32, &lane{lo: lo, hi: hi, sym: 0}, constLane(m))
		if why != "" {
			t.Fatal(why)
		}
		gl, gh := int64(1<<62), int64(-1)
		for x := lo; x <= hi; x++ {
			v := x & m
			gl, gh = min(gl, v), max(gh, v)
			if v < l || v > h {
				t.Fatalf("[%d, %d] & %#x: %d outside [%d, %d]", lo, hi, m, v, l, h)
			}
		}
		if lo>>k == hi>>k && (l != gl || h != gh) {
			t.Fatalf("[%d, %d] & %#x: [%d, %d], want exactly [%d, %d]", lo, hi, m, l, h, gl, gh)
		}
	}
}
