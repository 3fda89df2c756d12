package polyvec

import (
	"math/bits"
	"testing"
)

// fields are the moduli the NTT kernels use: ML-KEM's and ML-DSA's.
var fields = []int64{3329, 8380417}

// TestLazyModelIsNTT checks the model against the NTT's definition: with
// L layers and blocks of s = 256/2^L coefficients, output s·i + r is
// Σ_j f[s·j + r]·ζ^((2·BitRev_L(i)+1)·j) mod q (FIPS 203 §4.3, FIPS 204
// §7.5).
func TestLazyModelIsNTT(t *testing.T) {
	for _, q := range fields {
		m := NewLazyModel(q)
		L := m.Layers
		s, n := N>>L, 1<<L
		root := leastOfOrder(q, int64(2*n))
		var in Poly[int32]
		Fill(NewRand(uint64(q)), int32(q), &in)
		out, _, _ := m.Run(&in)
		for i := range n {
			e := 2*int64(bits.Reverse64(uint64(i))>>(64-L)) + 1
			for r := range s {
				var want int64
				for j := range n {
					want = (want + int64(in[s*j+r])*powMod(root, e*int64(j), q)) % q
				}
				if got := (out[s*i+r]%q + q) % q; got != want {
					t.Fatalf("q=%d: lazy model output %d ≡ %d, want %d", q, s*i+r, got, want)
				}
			}
		}
	}
}

// laneRange returns the least and greatest lane the model reaches on
// the edges named by pick.
func laneRange(q int64, pick func(name string) bool) (lo, hi int64) {
	m := NewLazyModel(q)
	lo, hi = 1<<62, -1<<62
	var p Poly[int32]
	for _, e := range Edges {
		if !pick(e.Name) {
			continue
		}
		SetEdge(e, int32(q), &p)
		_, l, h := m.Run(&p)
		lo, hi = min(lo, l), max(hi, h)
	}
	return lo, hi
}

func isWorst(name string) bool { return len(name) > 6 && name[:6] == "worst-" }

// TestWorstReachBeyondOldEdges checks that the worst-case edges are
// canonical and drive the model's lanes beyond every other edge, in both
// directions, and logs the ranges (docs/bounds.md quotes them).
func TestWorstReachBeyondOldEdges(t *testing.T) {
	for _, q := range fields {
		var p Poly[int32]
		for _, e := range Edges {
			SetEdge(e, int32(q), &p)
			for i, c := range p {
				if c < 0 || int64(c) >= q {
					t.Fatalf("q=%d: edge %s coefficient %d = %d, not canonical", q, e.Name, i, c)
				}
			}
		}
		oldLo, oldHi := laneRange(q, func(n string) bool { return !isWorst(n) })
		newLo, newHi := laneRange(q, isWorst)
		t.Logf("q=%d: lazy NTT lanes: old edges [%d, %d] = [%.2fq, %.2fq], worst edges [%d, %d] = [%.2fq, %.2fq]",
			q, oldLo, oldHi, float64(oldLo)/float64(q), float64(oldHi)/float64(q),
			newLo, newHi, float64(newLo)/float64(q), float64(newHi)/float64(q))
		if newHi <= oldHi || newLo >= oldLo {
			t.Errorf("q=%d: worst edges reach [%d, %d], not beyond the old edges' [%d, %d]", q, newLo, newHi, oldLo, oldHi)
		}
	}
}

// shortChain is a planted near-bound defect on a copy of the lazy NTT's
// arithmetic (ML-KEM): its final reduction brings a lane x ∈ [−4q, 5q)
// to [0, q) by adding 4q and conditionally subtracting 8q, 4q, 2q and q,
// the 8q step left out (issue 42's subtraction chain one step short); it
// is wrong exactly for lanes ≥ 4q.
func shortChain(x, q int64) int64 {
	x += 4 * q
	for _, k := range []int64{4, 2, 1} { // 8 missing
		if x >= k*q {
			x -= k * q
		}
	}
	return x
}

// TestPlantedShortChain checks that the worst-case edges catch the
// planted defect and that the old edges do not.
func TestPlantedShortChain(t *testing.T) {
	const q = 3329
	m := NewLazyModel(q)
	caught := func(e Edge) bool {
		var p Poly[int32]
		SetEdge(e, int32(q), &p)
		out, _, _ := m.Run(&p)
		for _, x := range out {
			if shortChain(x, q) != (x%q+q)%q {
				return true
			}
		}
		return false
	}
	for _, e := range Edges {
		switch got := caught(e); {
		case !isWorst(e.Name) && got:
			t.Errorf("old edge %s catches the short subtraction chain; the test shows nothing", e.Name)
		case e.Name == "worst-ntt-max" && !got:
			t.Errorf("edge %s misses the short subtraction chain", e.Name)
		}
	}
}

// TestWorstTablesCurrent checks the generated zworst.go against the
// derivation (run go generate ./internal/polyvec when this fails) and
// that it covers both NTT moduli.
func TestWorstTablesCurrent(t *testing.T) {
	for _, q := range fields {
		found := false
		for _, e := range worstTables {
			if e.q != q {
				continue
			}
			found = true
			if d := Derive(q); d[0] != e.w.max || d[1] != e.w.min {
				t.Errorf("q=%d: zworst.go differs from Derive; run go generate ./internal/polyvec", q)
			}
		}
		if !found {
			t.Errorf("q=%d: zworst.go lacks the modulus", q)
		}
	}
}
