//go:build !purego

package poly1305

import (
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/poly1305core"
	"github.com/tunelab/tunelab/lab/bounds"
)

// TestPowerTableContract: every vector variant's power table, as its
// set's fill function writes it, lies word by word within
// contract.PolyPowTable of its shape (the bound the range analysis
// assumes for pw) for the keys of contractKeys.
func TestPowerTableContract(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 305))
	for _, rec := range labVariants() {
		v := rec.Fn
		if !v.Vector {
			continue
		}
		bs := contract.PolyPowTable(v.Radix, v.Lanes, v.Unroll, v.Compact)
		if len(bs) != v.PowWords {
			t.Fatalf("%s: the contract bounds %d words, the table has %d", rec.Name, len(bs), v.PowWords)
		}
		for _, r := range contractKeys(rng) {
			var tab [poly1305core.MaxPowWords]uint64
			fillTable(v, tab[:], &r)
			checkWords(t, rec.Name+" pw", tab[:v.PowWords], bs)
		}
	}
}

// TestProvenBoundHoldsOnHardware runs every runnable variant's block
// path on inputs at the contract's corners (h = 2^128·7 + 2^128 − 1, the
// largest clamped r, all-0xff blocks) and random ones, over lengths its
// vector function takes whole (no scalar tail), and requires the h[2]
// the hardware returns within the bound lab/bounds records as proven for
// the variant (the range analysis' result, regenerated with the
// variants).
func TestProvenBoundHoldsOnHardware(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 305))
	checked := 0
	for _, im := range runnable(t) {
		if im.Fn == nil { // the generic code
			continue
		}
		st, ok := bounds.Of("poly1305", im.Name)
		if !ok || st.Status != bounds.Proven {
			t.Fatalf("%s: no proven bound recorded (%v)", im.Name, st.Status)
		}
		v := im.Fn
		for _, n := range wholeLengths(v) {
			for trial := 0; trial < 4; trial++ {
				m := make([]byte, n)
				var s state
				s.H = [3]uint64{^uint64(0), ^uint64(0), contract.Poly1305H2.Hi}
				s.R = [2]uint64{contract.PolyRMask0, contract.PolyRMask1}
				if trial%2 == 0 {
					for i := range m {
						m[i] = 0xff
					}
				} else {
					fill(rng, m)
					s.H = [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64N(8)}
					s.R = [2]uint64{rng.Uint64() & contract.PolyRMask0, rng.Uint64() & contract.PolyRMask1}
				}
				apiBlocks(v, &s, m, nil)
				if h2 := int64(s.H[2]); h2 < st.Lo || h2 > st.Hi {
					t.Fatalf("%s: %d bytes: h[2] = %d outside the proven [%d, %d]", im.Name, n, h2, st.Lo, st.Hi)
				}
				checked++
			}
		}
	}
	if checked == 0 {
		t.Fatal("no variant checked")
	}
	t.Logf("%d runs within the proven bounds", checked)
}

// wholeLengths are message lengths v's vector function takes without a
// scalar tail (a scalar variant: any whole blocks).
func wholeLengths(v *asmVariant) []int {
	if !v.Vector {
		return []int{16, 64, 16 * 9}
	}
	c := v.Chunk()
	if v.TailVector {
		return []int{16, 16 * (v.Lanes*v.Unroll + 1), 3 * c}
	}
	return []int{c, 2 * c, 3 * c}
}
