//go:build !purego

package poly1305

import (
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/poly1305core"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/asmtest"
)

// testPowerTables recomputes every vector variant's power table with
// math/big: in entry e, lane q the limbs must be below the radix (the top
// limb below 2^(131-radix·(n-1))), represent r^exp mod p (exp as
// documented in variants/poly1305, fill.go), and the wrap components must
// be the wrap factor times limbs 1..n-1 (the compact pow=reg tables hold
// no wrap components and each broadcast entry once). The tables come from
// the fill functions of the set running the variant (fillTable): the
// production file's copies and the lab package's.
func testPowerTables(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))
	for _, rec := range labVariants() {
		v := rec.Fn
		if !v.Vector {
			continue
		}
		for trial := 0; trial < 20; trial++ {
			var st state
			st.Init(randKey(rng))
			if trial == 0 {
				st.R = [2]uint64{poly1305core.RMask0, poly1305core.RMask1} // largest clamped r
			}
			checkPowerTable(t, rec.Name, v, &st.R, p)
		}
	}
}

func checkPowerTable(t *testing.T, name string, v *asmVariant, r2 *[2]uint64, p *big.Int) {
	var tab [poly1305core.MaxPowWords]uint64
	fillTable(v, tab[:], r2)
	r := new(big.Int).Lsh(new(big.Int).SetUint64(r2[1]), 64)
	r.Or(r, new(big.Int).SetUint64(r2[0]))
	nl, wrap := 5, uint64(5)
	if v.Radix == 44 {
		nl, wrap = 3, 20
	}
	L, u := v.Lanes, v.Unroll
	for e := 0; e <= u; e++ {
		for q := 0; q < L; q++ {
			if v.Compact && e < u && q > 0 {
				continue // broadcast entries are stored once
			}
			exp := L * (u - e)
			if e == 0 {
				exp = L * u
			} else if e == u {
				exp = L - v.Order[q]
			}
			at := func(c int) uint64 { return tab[(e*(2*nl-1)+c)*L+q] }
			if v.Compact && e < u {
				at = func(c int) uint64 { return tab[e*nl+c] }
			} else if v.Compact {
				at = func(c int) uint64 { return tab[u*nl+c*L+q] }
			}
			val := new(big.Int)
			for c := nl - 1; c >= 0; c-- {
				limit := uint(v.Radix)
				if c == nl-1 {
					limit = uint(131 - v.Radix*(nl-1))
				}
				if at(c)>>limit != 0 {
					t.Fatalf("%s: entry %d lane %d (r^%d): limb %d = %#x exceeds %d bits", name, e, q, exp, c, at(c), limit)
				}
				val.Lsh(val, uint(v.Radix)).Add(val, new(big.Int).SetUint64(at(c)))
			}
			want := new(big.Int).Exp(r, big.NewInt(int64(exp)), p)
			if val.Mod(val, p).Cmp(want) != 0 {
				t.Fatalf("%s: entry %d lane %d: limbs are %v mod p, want r^%d = %v", name, e, q, val, exp, want)
			}
			for c := 1; c < nl && !v.Compact; c++ {
				if got := at(nl - 1 + c); got != wrap*at(c) {
					t.Fatalf("%s: entry %d lane %d: wrap component %d = %#x, want %d·%#x", name, e, q, c, got, wrap, at(c))
				}
			}
		}
	}
}

// fillTable writes v's power table with the fill functions of the set
// running v: lab/variants/poly1305's (poly1305core.Lab) for a lab
// variant, this package's production copies for the others.
func fillTable(v *asmVariant, tab []uint64, r *[2]uint64) {
	if v.InLab() {
		poly1305core.Lab.FillTable(v.Shape, tab, r)
		return
	}
	prodFillTable(v.Shape, tab, r)
}

// TestVariantZeroIsPlainScalar checks the assumption of OneShot and
// ScalarID that variant 0, the short-message and tail path of the Sum
// and Blocks wrappers, is a scalar variant every amd64 CPU runs, and
// that the table sizes bound every variant's power table.
func TestVariantZeroIsPlainScalar(t *testing.T) {
	all := labVariants()
	if r := all[0]; r.Fn.Vector || len(r.Features) != 0 {
		t.Fatalf("variant 0 is %s (features %v), want a scalar variant without features", r.Name, r.Features)
	}
	for _, r := range all {
		if v := r.Fn; v.PowWords > poly1305core.MaxPowWords || ((v.Compact || v.TailVector) && v.PowWords > poly1305core.TinyPowWords) {
			t.Errorf("%s: power table of %d words exceeds its buffer", r.Name, v.PowWords)
		}
	}
}

// TestProductionLinksTable checks that the production set holds every
// variant the compiled dispatch table names, listed by the lab table of
// lab/variants/poly1305 at their ids with the same records but no
// function; that the lab table's other records are that package's, at
// their ids; and that the production implementations run through the
// production switches.
func TestProductionLinksTable(t *testing.T) {
	const labPkg = "github.com/tunelab/tunelab/lab/variants/poly1305."
	var names []string
	raw := variant.LabTable[*asmVariant]("poly1305.labVariants")
	for _, r := range prodVariants {
		names = append(names, r.Name)
		lab := raw[r.Fn.ID]
		if lab.Name != r.Name || lab.Symbol != r.Symbol || !slices.Equal(lab.Features, r.Features) || lab.Fn != nil {
			t.Errorf("production record %+v differs from the lab record %+v (which must have no function)", r, lab)
		}
	}
	for i, r := range raw {
		if r.Fn != nil && (r.Fn.ID != i || !strings.HasPrefix(r.Symbol, labPkg) || slices.Contains(names, r.Name)) {
			t.Errorf("lab record %d %+v: want id %d, a symbol of %s, a variant production does not link", i, r, i, labPkg)
		}
	}
	asmtest.CheckProduction(t, map[string][]string{kernel: names})
	for _, im := range slot.Known() {
		if prod := slices.Contains(names, im.Name); prod == im.Fn.InLab() {
			t.Errorf("%s: lab = %v, but in the production set: %v", im.Name, im.Fn.InLab(), prod)
		}
	}
}

// TestLabSwitches runs every runnable lab variant through the lab
// switches of lab/variants/poly1305 (poly1305core.Lab), which also run
// that package's copy of variant 0's scalar code on short messages and
// on the blocks a vector iteration leaves.
func TestLabSwitches(t *testing.T) {
	rng := rand.New(rand.NewPCG(55, 56))
	for _, r := range labVariants() {
		if !r.Fn.InLab() || !cpu.Has(r.Features...) {
			continue
		}
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
		if v == nil || !v.TailSteps {
			continue
		}
		for iters := 1; iters <= 3; iters++ {
			for steps := 0; steps < 8; steps++ {
				for blocks := 0; blocks < 4; blocks++ {
					for _, extra := range []int{0, 5} {
						n := iters*v.Chunk() + 64*steps + 16*blocks + extra
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
