//go:build !purego

package poly1305

import (
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/poly1305core"
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
