//go:build !purego

package poly1305

import (
	"math/big"
	"math/rand/v2"
	"testing"
)

// testPowerTables recomputes every vector variant's power table with
// math/big: in entry e, lane q the limbs must be below the radix (the top
// limb below 2^(131-radix·(n-1))), represent r^exp mod p (exp as
// documented in variants/poly1305, fill.go), and the wrap components must
// be the wrap factor times limbs 1..n-1 (the compact pow=reg tables hold
// no wrap components and each broadcast entry once).
func testPowerTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))
	for i := range asmVariants {
		v := &asmVariants[i]
		if !v.vector {
			continue
		}
		for trial := 0; trial < 20; trial++ {
			var st state
			st.init(randKey(rng))
			if trial == 0 {
				st.r = [2]uint64{rMask0, rMask1} // largest clamped r
			}
			checkPowerTable(t, v, &st.r, p)
		}
	}
}

func checkPowerTable(t *testing.T, v *asmVariant, r2 *[2]uint64, p *big.Int) {
	var tab [maxPowWords]uint64
	v.fillPowers(tab[:], r2)
	r := new(big.Int).Lsh(new(big.Int).SetUint64(r2[1]), 64)
	r.Or(r, new(big.Int).SetUint64(r2[0]))
	nl, wrap := 5, uint64(5)
	if v.radix == 44 {
		nl, wrap = 3, 20
	}
	L, u := v.lanes, v.unroll
	for e := 0; e <= u; e++ {
		for q := 0; q < L; q++ {
			if v.compact && e < u && q > 0 {
				continue // broadcast entries are stored once
			}
			exp := L * (u - e)
			if e == 0 {
				exp = L * u
			} else if e == u {
				exp = L - v.order[q]
			}
			at := func(c int) uint64 { return tab[(e*(2*nl-1)+c)*L+q] }
			if v.compact && e < u {
				at = func(c int) uint64 { return tab[e*nl+c] }
			} else if v.compact {
				at = func(c int) uint64 { return tab[u*nl+c*L+q] }
			}
			val := new(big.Int)
			for c := nl - 1; c >= 0; c-- {
				limit := uint(v.radix)
				if c == nl-1 {
					limit = uint(131 - v.radix*(nl-1))
				}
				if at(c)>>limit != 0 {
					t.Fatalf("%s: entry %d lane %d (r^%d): limb %d = %#x exceeds %d bits", v.name, e, q, exp, c, at(c), limit)
				}
				val.Lsh(val, uint(v.radix)).Add(val, new(big.Int).SetUint64(at(c)))
			}
			want := new(big.Int).Exp(r, big.NewInt(int64(exp)), p)
			if val.Mod(val, p).Cmp(want) != 0 {
				t.Fatalf("%s: entry %d lane %d: limbs are %v mod p, want r^%d = %v", v.name, e, q, val, exp, want)
			}
			for c := 1; c < nl && !v.compact; c++ {
				if got := at(nl - 1 + c); got != wrap*at(c) {
					t.Fatalf("%s: entry %d lane %d: wrap component %d = %#x, want %d·%#x", v.name, e, q, c, got, wrap, at(c))
				}
			}
		}
	}
}

// TestVariantZeroIsPlainScalar checks the assumption of asmSum and
// asmBlocks that variant 0, their short-message and tail path, is a
// scalar variant every amd64 CPU runs, and that the table sizes bound
// every variant's power table.
func TestVariantZeroIsPlainScalar(t *testing.T) {
	if v := asmVariants[0]; v.vector || len(v.features) != 0 {
		t.Fatalf("variant 0 is %s (features %v), want a scalar variant without features", v.name, v.features)
	}
	for _, v := range asmVariants {
		if v.powWords > maxPowWords || ((v.compact || v.tailVector) && v.powWords > tinyPowWords) {
			t.Errorf("%s: power table of %d words exceeds its buffer", v.name, v.powWords)
		}
	}
}
