package sha3

import (
	"bytes"
	"crypto/sha3"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

// theirShake returns crypto/sha3's SHAKE function for a many kernel.
func theirShake(k *manyKernel) func([]byte, int) []byte {
	if k.rate == rate128X {
		return sha3.SumSHAKE128
	}
	return sha3.SumSHAKE256
}

// checkStreams compares every output with crypto/sha3's.
func checkStreams(k *manyKernel, outs, ins [][]byte) error {
	ref := theirShake(k)
	for i := range ins {
		if want := ref(ins[i], len(outs[i])); !bytes.Equal(outs[i], want) {
			return fmt.Errorf("stream %d of %d (%d-byte input, %d-byte output) differs from crypto/sha3 at byte %d",
				i, len(ins), len(ins[i]), len(want), firstDiff(outs[i], want))
		}
	}
	return nil
}

// runnableWays returns the NRs to test: the generic code (0) and every
// width, each of which runs on every CPU.
func runnableWays(*testing.T) []int { return append([]int{0}, widths...) }

// TestManyForcedWays runs every NR (and the generic code) on 0 to 17
// streams of mixed input and output lengths, and on equal lengths (the
// ML-KEM and ML-DSA case), against crypto/sha3.
func TestManyForcedWays(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	rounds := 6
	if testing.Short() {
		rounds = 1
	}
	for _, k := range manyKernels {
		for _, nr := range runnableWays(t) {
			for n := 0; n <= 17; n++ {
				for r := 0; r < rounds; r++ {
					ins, outs := k.mixedStreams(rng, n)
					if r%2 == 1 {
						ins, outs = equalStreams(rng, n, randomLength(rng, k.rate), randomLength(rng, k.rate))
					}
					k.runWays(nr, outs, ins)
					if err := checkStreams(k, outs, ins); err != nil {
						t.Fatalf("%s nr=%d, %d streams, round %d: %v", k.name, nr, n, r, err)
					}
				}
			}
		}
	}
}

// equalStreams returns n random inputs of inLen bytes and n outputs of
// outLen bytes.
func equalStreams(rng *rand.Rand, n, inLen, outLen int) (ins, outs [][]byte) {
	if rng == nil {
		rng = rand.New(rand.NewPCG(uint64(n), uint64(inLen)))
	}
	for i := 0; i < n; i++ {
		ins = append(ins, randomBytes(rng, inLen))
		outs = append(outs, make([]byte, outLen))
	}
	return ins, outs
}

// TestManyOneLongStream checks groups where one stream absorbs and
// squeezes far longer than the others: the finished states must not be
// permuted again while it continues.
func TestManyOneLongStream(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, k := range manyKernels {
		for _, nr := range runnableWays(t) {
			for long := 0; long < 8; long++ {
				ins, outs := equalStreams(rng, 8, 34, 100)
				ins[long] = randomBytes(rng, 5*k.rate+3)
				outs[long] = make([]byte, 4*k.rate+1)
				k.runWays(nr, outs, ins)
				if err := checkStreams(k, outs, ins); err != nil {
					t.Fatalf("%s nr=%d, stream %d long: %v", k.name, nr, long, err)
				}
			}
		}
	}
}

// TestManyPublicAPI checks SHAKE128Many and SHAKE256Many, on whatever
// dispatch selected, for 0 to 17 streams.
func TestManyPublicAPI(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, f := range []struct {
		k    *manyKernel
		many func(outs, ins [][]byte)
	}{{shake128Many, SHAKE128Many}, {shake256Many, SHAKE256Many}} {
		t.Logf("%s plan %v", f.k.name, f.k.slot.Plan())
		for n := 0; n <= 17; n++ {
			ins, outs := f.k.mixedStreams(rng, n)
			f.many(outs, ins)
			if err := checkStreams(f.k, outs, ins); err != nil {
				t.Fatalf("%s, %d streams: %v", f.k.bench, n, err)
			}
		}
	}
}

// TestManyLengthMismatchPanics checks that len(outs) != len(ins) panics.
func TestManyLengthMismatchPanics(t *testing.T) {
	if !panics(func() { SHAKE128Many(make([][]byte, 2), make([][]byte, 3)) }) {
		t.Errorf("SHAKE128Many with 2 outputs for 3 inputs did not panic")
	}
	if !panics(func() { SHAKE256Many(nil, make([][]byte, 1)) }) {
		t.Errorf("SHAKE256Many with no outputs for 1 input did not panic")
	}
}

// TestManySizeClasses installs a plan by number of streams, as an
// exported table would (ways=1 up to 2 streams, ways=4 up to 5, ways=8
// above), and checks the NR each count gets and the outputs.
func TestManySizeClasses(t *testing.T) {
	k := shake128Many
	restore, err := k.slot.UsePlan([]dispatch.Choice{{MaxSize: 2, Variant: "ways=1"}, {MaxSize: 5, Variant: "ways=4"}, {Variant: "ways=8"}})
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	rng := rand.New(rand.NewPCG(15, 16))
	for n, want := range map[int]int{0: 1, 1: 1, 2: 1, 3: 4, 5: 4, 6: 8, 17: 8} {
		if got := k.slot.For(n); got != want {
			t.Errorf("%d streams: ways=%d, want ways=%d", n, got, want)
		}
		ins, outs := equalStreams(rng, n, 34, 504)
		SHAKE128Many(outs, ins)
		if err := checkStreams(k, outs, ins); err != nil {
			t.Errorf("%d streams: %v", n, err)
		}
	}
}

// TestWidth checks the narrowest group width for k states.
func TestWidth(t *testing.T) {
	for k, want := range map[int]int{1: 1, 2: 2, 3: 4, 4: 4, 5: 8, 8: 8} {
		if got := width(k); got != want {
			t.Errorf("width(%d) = %d, want %d", k, got, want)
		}
	}
}
