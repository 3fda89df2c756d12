//go:build !purego

package poly1305

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/lab/asmtest"
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
	for _, rec := range labVariants() {
		v := rec.Fn
		if !v.vector {
			continue
		}
		for trial := 0; trial < 20; trial++ {
			var st state
			st.init(randKey(rng))
			if trial == 0 {
				st.r = [2]uint64{rMask0, rMask1} // largest clamped r
			}
			checkPowerTable(t, rec.Name, v, &st.r, p)
		}
	}
}

func checkPowerTable(t *testing.T, name string, v *asmVariant, r2 *[2]uint64, p *big.Int) {
	var tab [maxPowWords]uint64
	labFillTable(v.shape, tab[:], r2)
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
					t.Fatalf("%s: entry %d lane %d (r^%d): limb %d = %#x exceeds %d bits", name, e, q, exp, c, at(c), limit)
				}
				val.Lsh(val, uint(v.radix)).Add(val, new(big.Int).SetUint64(at(c)))
			}
			want := new(big.Int).Exp(r, big.NewInt(int64(exp)), p)
			if val.Mod(val, p).Cmp(want) != 0 {
				t.Fatalf("%s: entry %d lane %d: limbs are %v mod p, want r^%d = %v", name, e, q, val, exp, want)
			}
			for c := 1; c < nl && !v.compact; c++ {
				if got := at(nl - 1 + c); got != wrap*at(c) {
					t.Fatalf("%s: entry %d lane %d: wrap component %d = %#x, want %d·%#x", name, e, q, c, got, wrap, at(c))
				}
			}
		}
	}
}

// TestVariantZeroIsPlainScalar checks the assumption of oneShot and
// scalarID that variant 0, the short-message and tail path of the Sum
// and Blocks wrappers, is a scalar variant every amd64 CPU runs, and
// that the table sizes bound every variant's power table.
func TestVariantZeroIsPlainScalar(t *testing.T) {
	all := labVariants()
	if r := all[0]; r.Fn.vector || len(r.Features) != 0 {
		t.Fatalf("variant 0 is %s (features %v), want a scalar variant without features", r.Name, r.Features)
	}
	for _, r := range all {
		if v := r.Fn; v.powWords > maxPowWords || ((v.compact || v.tailVector) && v.powWords > tinyPowWords) {
			t.Errorf("%s: power table of %d words exceeds its buffer", r.Name, v.powWords)
		}
	}
}

// TestProductionLinksTable checks that the production set holds every
// variant the compiled dispatch table names, with the records of the lab
// set, and that the production implementations run through the
// production switches.
func TestProductionLinksTable(t *testing.T) {
	var names []string
	all := labVariants()
	for _, r := range prodVariants {
		names = append(names, r.Name)
		lab := all[r.Fn.id]
		if lab.Name != r.Name || lab.Symbol != r.Symbol || !slices.Equal(lab.Features, r.Features) ||
			lab.Fn.shape != r.Fn.shape || lab.Fn.powWords != r.Fn.powWords {
			t.Errorf("production record %+v differs from the lab record %+v", r, lab)
		}
	}
	asmtest.CheckProduction(t, map[string][]string{kernel: names})
	for _, im := range slot.Known() {
		if prod := slices.Contains(names, im.Name); prod == im.Fn.inLab() {
			t.Errorf("%s: lab = %v, but in the production set: %v", im.Name, im.Fn.inLab(), prod)
		}
	}
}

// TestLabSwitches runs every runnable variant through the lab switches,
// which the lab implementations use only for the variants production
// lacks.
func TestLabSwitches(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	for _, r := range labVariants() {
		if !cpu.Has(r.Features...) {
			continue
		}
		prepare(r.Fn, true)
		for _, n := range []int{0, 16, 100, 1024, 4096 + 48} {
			m := make([]byte, n)
			fill(rng, m)
			checkAgainstXCrypto(t, r, m, randKey(rng), "lab switches")
		}
	}
}

// TestTailStepsWorstCase runs every runnable tail=vec4 variant on
// all-ones messages under the all-ones key (the largest clamped r, so the
// largest limbs and power components of the bounds in variants/poly1305,
// carry26) and on random ones, at 1 to 3 whole iterations plus 0 to 7
// 4-block vectors plus 0 to 3 blocks plus 0 or 5 bytes: every split
// between the loop, the one-vector steps, the scalar blocks and the final
// partial block.
func TestTailStepsWorstCase(t *testing.T) {
	rng := rand.New(rand.NewPCG(57, 58))
	var ones [32]byte
	for i := range ones {
		ones[i] = 0xff
	}
	for _, im := range runnable(t) {
		v := im.Fn
		if v == nil || !v.tailSteps {
			continue
		}
		for iters := 1; iters <= 3; iters++ {
			for steps := 0; steps < 8; steps++ {
				for blocks := 0; blocks < 4; blocks++ {
					for _, extra := range []int{0, 5} {
						n := iters*v.chunk() + 64*steps + 16*blocks + extra
						m := make([]byte, n)
						for i := range m {
							m[i] = 0xff
						}
						checkAgainstXCrypto(t, im, m, &ones, "all-ones message and key")
						fill(rng, m)
						checkAgainstXCrypto(t, im, m, randKey(rng), "random")
					}
				}
			}
		}
	}
}
