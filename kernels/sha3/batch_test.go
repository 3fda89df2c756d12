package sha3

import (
	"bytes"
	"crypto/sha3"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/lab/anchorbench"
)

// A batchCase is one random Batch: its sponges' kinds, inputs (split into
// pieces), output lengths and dependencies.
type batchCase struct {
	kinds  []int // 0 SHAKE128, 1 SHAKE256, 2 SHA3-256, 3 SHA3-512, 4 and 5 streams of SHAKE128 and SHAKE256
	pieces [][][]byte
	outs   [][]byte
	after  []int // -1 or the sponge whose output is the first piece's prefix
}

// newBatchCase draws up to max sponges with inputs up to 3 blocks and
// outputs up to 6 blocks; a sponge may take an earlier one's output as its
// first piece.
func newBatchCase(r *rand.Rand, maxJobs int) *batchCase {
	c := &batchCase{}
	n := 1 + r.IntN(maxJobs)
	for i := range n {
		kind := r.IntN(6)
		c.kinds = append(c.kinds, kind)
		outLen := []int{r.IntN(6 * 168), r.IntN(6 * 136), 32, 64, 168 * (1 + r.IntN(8)), 136 * (1 + r.IntN(8))}[kind]
		c.outs = append(c.outs, make([]byte, outLen))
		after := -1
		if i > 0 && r.IntN(4) == 0 && c.kinds[i-1] < 4 {
			after = i - 1 - r.IntN(i)
			for c.kinds[after] >= 4 {
				after++
			}
		}
		c.after = append(c.after, after)
		var pieces [][]byte
		for range 1 + r.IntN(3) {
			p := make([]byte, r.IntN(200))
			for k := range p {
				p[k] = byte(r.Uint32())
			}
			pieces = append(pieces, p)
		}
		if after >= 0 {
			pieces[0] = c.outs[after]
		}
		c.pieces = append(c.pieces, pieces)
	}
	return c
}

// run computes the case with a Batch on nr lanes (-1: Run's choice).
func (c *batchCase) run(b *Batch, nr int) { c.runAfter(b, nr, 0) }

// runAfter is run on a Batch that holds first sponges of its own already
// (absorptions, which give no blocks).
func (c *batchCase) runAfter(b *Batch, nr, first int) {
	for i, kind := range c.kinds {
		switch kind {
		case 0:
			b.SHAKE128(c.outs[i], c.pieces[i]...)
		case 1:
			b.SHAKE256(c.outs[i], c.pieces[i]...)
		case 2:
			b.SHA3_256((*[32]byte)(c.outs[i]), c.pieces[i]...)
		case 3:
			b.SHA3_512((*[64]byte)(c.outs[i]), c.pieces[i]...)
		case 4:
			b.Stream128(1+len(c.outs[i])/168%3, c.pieces[i]...)
		case 5:
			b.Stream256(1+len(c.outs[i])/136%3, c.pieces[i]...)
		}
		if c.after[i] >= 0 {
			b.After(first+i, first+c.after[i])
		}
	}
	got := make([]int, len(c.kinds)) // bytes of each stream received
	restore := func() {}
	if nr >= 0 {
		var err error
		if restore, err = UseWays(nr); err != nil {
			panic(err)
		}
	}
	defer restore()
	for {
		i, block, ok := b.Next()
		if !ok {
			break
		}
		i -= first
		if c.kinds[i] < 4 || got[i] >= len(c.outs[i]) {
			panic(fmt.Sprintf("sponge %d (kind %d) gave a block after %d of %d bytes", i, c.kinds[i], got[i], len(c.outs[i])))
		}
		got[i] += copy(c.outs[i][got[i]:], block)
		if got[i] == len(c.outs[i]) {
			b.Done(first + i)
		}
	}
}

// want returns sponge i's output by crypto/sha3, given the outputs of the
// sponges before it.
func (c *batchCase) want(i int) []byte {
	in := bytes.Join(c.pieces[i], nil)
	switch c.kinds[i] {
	case 0, 4:
		return sha3.SumSHAKE128(in, len(c.outs[i]))
	case 1, 5:
		return sha3.SumSHAKE256(in, len(c.outs[i]))
	case 2:
		d := sha3.Sum256(in)
		return d[:]
	}
	d := sha3.Sum512(in)
	return d[:]
}

// TestBatch compares every sponge of random batches, on every lane count
// and the generic path, with crypto/sha3, dependencies included.
func TestBatch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	cases := 400
	if testing.Short() {
		cases = 40
	}
	var b Batch
	for i := range cases {
		for _, nr := range []int{-1, 0, 1, 2, 4, 8} {
			c := newBatchCase(r, []int{3, 12, MaxJobs}[i%3])
			c.run(&b, nr)
			for j := range c.kinds {
				if want := c.want(j); !bytes.Equal(c.outs[j], want) {
					t.Fatalf("case %d, ways=%d, sponge %d of %d (kind %d, after %d): output differs from crypto/sha3",
						i, nr, j, len(c.kinds), c.kinds[j], c.after[j])
				}
			}
			if b.Len() != 0 {
				t.Fatalf("case %d: Run left %d sponges", i, b.Len())
			}
		}
	}
}

// TestBatchAbsorb checks absorptions (Absorb, AbsorbSHAKE) of random
// prefixes into SHA3-256 and SHA3-512 hashes, some with whole blocks
// written before, and into SHAKE128 and SHAKE256, beside random batches,
// on every lane count and the generic path: the hash, completed with the
// rest of its message, must be crypto/sha3's.
func TestBatchAbsorb(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var b Batch
	for i := range 200 {
		for _, nr := range []int{-1, 0, 1, 2, 4, 8} {
			c := newBatchCase(r, []int{3, 12, MaxJobs - 5}[i%3])
			var hs [3]*SHA3
			var xs [2]*SHAKE
			var msgs [5][]byte
			var absorbed [5]int
			for k := range 5 {
				msgs[k] = make([]byte, r.IntN(1500))
				for x := range msgs[k] {
					msgs[k][x] = byte(r.Uint32())
				}
			}
			for k := range 1 + r.IntN(3) {
				hs[k] = []*SHA3{New256(), New512()}[r.IntN(2)]
				pre := r.IntN(3) * hs[k].BlockSize()
				if pre > len(msgs[k]) {
					pre = 0
				}
				hs[k].Write(msgs[k][:pre])
				absorbed[k] = pre + max(0, b.Absorb(hs[k], msgs[k][pre:]))
			}
			for k := range r.IntN(3) {
				xs[k] = []*SHAKE{NewSHAKE128(), NewSHAKE256()}[r.IntN(2)]
				absorbed[3+k] = max(0, b.AbsorbSHAKE(xs[k], msgs[3+k]))
			}
			c.runAfter(&b, nr, b.Len())
			for k, h := range hs {
				if h == nil {
					continue
				}
				h.Write(msgs[k][absorbed[k]:])
				var want []byte
				if h.Size() == 32 {
					d := sha3.Sum256(msgs[k])
					want = d[:]
				} else {
					d := sha3.Sum512(msgs[k])
					want = d[:]
				}
				if got := h.Sum(nil); !bytes.Equal(got, want) {
					t.Fatalf("case %d, ways=%d: hash %d (%d bytes, %d absorbed by the batch) differs from crypto/sha3",
						i, nr, k, len(msgs[k]), absorbed[k])
				}
			}
			for k, x := range xs {
				if x == nil {
					continue
				}
				m := msgs[3+k]
				x.Write(m[absorbed[3+k]:])
				got := make([]byte, 200)
				x.Read(got)
				want := sha3.SumSHAKE256(m, 200)
				if x.BlockSize() == 168 {
					want = sha3.SumSHAKE128(m, 200)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("case %d, ways=%d: SHAKE %d (rate %d, %d bytes, %d absorbed by the batch) differs from crypto/sha3",
						i, nr, k, x.BlockSize(), len(m), absorbed[3+k])
				}
			}
			for j := range c.kinds {
				if want := c.want(j); !bytes.Equal(c.outs[j], want) {
					t.Fatalf("case %d, ways=%d, sponge %d: output differs from crypto/sha3", i, nr, j)
				}
			}
		}
	}
}

// TestBatchAllocs checks that a Batch on the stack allocates nothing.
func TestBatchAllocs(t *testing.T) {
	in := make([]byte, 1184)
	var outs [10][504]byte
	var h [32]byte
	allocs := testing.AllocsPerRun(20, func() {
		var b Batch
		b.SHA3_256(&h, in)
		for i := range 9 {
			b.SHAKE128(outs[i][:], in[:34])
		}
		b.Run()
	})
	if allocs != 0 {
		t.Errorf("a Batch of 10 sponges allocates %v times per run, want 0", allocs)
	}
}

// BenchmarkBatch measures ML-KEM-768's encapsulation-key hash beside its
// nine matrix streams (one Batch), per lane count (median per call).
func BenchmarkBatch(b *testing.B) {
	ek := make([]byte, 1184)
	var outs [9][504]byte
	var h [32]byte
	for _, nr := range []int{-1, 1, 2, 4, 8} {
		name := fmt.Sprintf("ways=%d", nr)
		if nr < 0 {
			name = "ways=auto"
		}
		b.Run(name, func(b *testing.B) {
			var bt Batch
			anchorbench.Step(b, func() {
				bt.SHA3_256(&h, ek)
				for i := range outs {
					bt.SHAKE128(outs[i][:], ek[:34])
				}
				if nr < 0 {
					bt.Run()
				} else {
					bt.run(nr)
				}
			})
		})
	}
}
