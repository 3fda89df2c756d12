package poly1305

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/poly1305core"
)

// contractKeys are clamped keys r the contract checks run on: the
// largest clamped r, the least non-zero ones and random ones.
func contractKeys(rng *rand.Rand) [][2]uint64 {
	ks := [][2]uint64{{contract.PolyRMask0, contract.PolyRMask1}, {1, 0}, {0, 4}, {contract.PolyRMask0, 0}}
	for range 16 {
		ks = append(ks, [2]uint64{rng.Uint64() & contract.PolyRMask0, rng.Uint64() & contract.PolyRMask1})
	}
	return ks
}

// contractBlocks are messages of full blocks: all 0xff (the largest
// block), zero and random.
func contractBlocks(rng *rand.Rand) [][]byte {
	ff, zero, rnd := make([]byte, 64), make([]byte, 64), make([]byte, 64)
	for i := range ff {
		ff[i], rnd[i] = 0xff, byte(rng.Uint32())
	}
	return [][]byte{ff, zero, rnd}
}

// TestGenericContract: the generic block code (BlocksGeneric) keeps h
// within contract.PolyBlocks' bound for every accumulator at the bound's
// corners, every clamped key above and both pad bits, block by block.
func TestGenericContract(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 305))
	c := contract.PolyBlocks()
	hIn, _ := c.Arg("h")
	top := hIn.In[2]
	for _, r := range contractKeys(rng) {
		for _, m := range contractBlocks(rng) {
			for _, hibit := range []uint64{0, 1} {
				for _, h2 := range []uint64{top.Lo, top.Hi} {
					for _, low := range []uint64{0, math.MaxUint64, rng.Uint64()} {
						h := [3]uint64{low, low, h2}
						for off := 0; off < len(m); off += 16 {
							poly1305core.BlocksGeneric(&h, &r, m[off:off+16], hibit)
							checkWords(t, "h", h[:], hIn.Out)
						}
					}
				}
			}
		}
	}
	key, _ := c.Arg("r")
	for _, r := range contractKeys(rng) {
		checkWords(t, "r", r[:], key.In)
	}
}

// TestGenericContractCatchesAWideInput: the check reports a top word
// one past the contract's (so the tests above can fail).
func TestGenericContractCatchesAWideInput(t *testing.T) {
	hIn, _ := contract.PolyBlocks().Arg("h")
	if err := wordsWithin([]uint64{0, 0, contract.Poly1305H2.Hi + 1}, hIn.In); err == nil {
		t.Fatal("h[2] = 8 passes the check")
	}
	if err := wordsWithin([]uint64{math.MaxUint64, math.MaxUint64, contract.Poly1305H2.Hi}, hIn.In); err != nil {
		t.Fatal(err)
	}
}

// checkWords fails t if a word of ws is outside its bound.
func checkWords(t *testing.T, name string, ws []uint64, bs []contract.Word) {
	t.Helper()
	if err := wordsWithin(ws, bs); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// wordsWithin returns an error naming the first word of ws outside its
// bound in bs.
func wordsWithin(ws []uint64, bs []contract.Word) error {
	if len(ws) != len(bs) {
		return fmt.Errorf("%d words, the contract bounds %d", len(ws), len(bs))
	}
	for i, w := range ws {
		if w < bs[i].Lo || w > bs[i].Hi {
			return fmt.Errorf("word %d = %#x outside %v", i, w, bs[i])
		}
	}
	return nil
}
