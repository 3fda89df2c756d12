package sha3

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/variant"
)

// A manyInstance is a prepared sweep input: size streams of the kernel's
// shape with pseudo-random contents.
type manyInstance struct {
	k         *manyKernel
	nr        int // 0: generic
	seed      uint64
	ins, outs [][]byte
}

func (k *manyKernel) newInstance(nr, size int, seed uint64) *manyInstance {
	rng := rand.New(rand.NewPCG(seed, 0x5ba3e))
	ins, outs := make([][]byte, size), make([][]byte, size)
	for i := range ins {
		ins[i], outs[i] = randomBytes(rng, k.inLen), make([]byte, k.outLen)
	}
	return &manyInstance{k: k, nr: nr, seed: seed, ins: ins, outs: outs}
}

// Run hashes the prepared streams n times.
func (in *manyInstance) Run(n int) {
	for i := 0; i < n; i++ {
		in.k.runWays(in.nr, in.outs, in.ins)
	}
}

// Check hashes the prepared streams once more and compares the outputs
// with the reference.
func (in *manyInstance) Check() error {
	in.k.runWays(in.nr, in.outs, in.ins)
	return in.k.compare(in.nr, fmt.Sprintf("sweep input (seed %#x)", in.seed), in.outs, in.ins)
}

// verify checks NR = nr on the sweep shape with size streams (at most
// verifyStreams) and on mixed lengths around the rate against the
// reference: the generic code for ways=N, the streaming sponge (and known
// answers) for the generic code.
func (k *manyKernel) verify(nr, size int, seed uint64) error {
	if nr == 0 {
		if err := k.checkKnownAnswer(); err != nil {
			return err
		}
	}
	if err := k.newInstance(nr, min(max(size, 1), verifyStreams), seed).Check(); err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d69786564))
	for c := 0; c < 4; c++ {
		ins, outs := k.mixedStreams(rng, 1+rng.IntN(17))
		k.runWays(nr, outs, ins)
		if err := k.compare(nr, fmt.Sprintf("mixed lengths #%d (seed %#x)", c, seed), outs, ins); err != nil {
			return err
		}
	}
	return nil
}

// mixedStreams returns n streams with input and output lengths drawn from
// the boundaries of the rate and the sweep shape.
func (k *manyKernel) mixedStreams(rng *rand.Rand, n int) (ins, outs [][]byte) {
	r := k.rate
	inLens := []int{0, 1, r - 1, r, r + 1, 2 * r, 3*r + 5, k.inLen}
	outLens := []int{0, 1, 8, r - 1, r, r + 1, 2*r + 7, k.outLen}
	for i := 0; i < n; i++ {
		ins = append(ins, randomBytes(rng, inLens[rng.IntN(len(inLens))]))
		outs = append(outs, make([]byte, outLens[rng.IntN(len(outLens))]))
	}
	return ins, outs
}

// compare checks outputs computed with NR = nr against the reference.
func (k *manyKernel) compare(nr int, input string, outs, ins [][]byte) error {
	for i := range ins {
		want := make([]byte, len(outs[i]))
		if nr == 0 {
			k.streaming(want, ins[i], uint64(i))
		} else {
			manyGeneric([][]byte{want}, ins[i:i+1], k.rate)
		}
		if j := firstDiff(outs[i], want); j >= 0 {
			name := variant.GenericName
			if nr > 0 {
				name = waysName(nr)
			}
			return &variant.Mismatch{Kernel: k.name, Variant: name, Index: j,
				Input: fmt.Sprintf("%s, stream %d of %d (%d-byte input, %d-byte output)", input, i, len(ins), len(ins[i]), len(want)),
				Got:   hex.EncodeToString(window(outs[i], j)), Want: hex.EncodeToString(window(want, j))}
		}
	}
	return nil
}

// streaming computes SHAKE output with the streaming sponge, writing and
// reading in pieces chosen from seed: the generic code's reference.
func (k *manyKernel) streaming(out, in []byte, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, uint64(len(in))))
	s := sponge{rate: k.rate, dsbyte: dsSHAKE}
	for len(in) > 0 {
		n := min(len(in), rng.IntN(2*k.rate))
		s.write(in[:n])
		in = in[n:]
	}
	for len(out) > 0 {
		n := min(len(out), 1+rng.IntN(2*k.rate))
		s.read(out[:n])
		out = out[n:]
	}
}

// emptyKnownAnswers are the first 32 bytes of SHAKE128("") and
// SHAKE256("") (NIST's SHAKE example values), by rate.
var emptyKnownAnswers = map[int]string{
	rate128X: "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
	rate256X: "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f",
}

// checkKnownAnswer checks the generic code on the empty input.
func (k *manyKernel) checkKnownAnswer() error {
	out := make([]byte, 32)
	manyGeneric([][]byte{out}, [][]byte{nil}, k.rate)
	got, want := hex.EncodeToString(out), emptyKnownAnswers[k.rate]
	if got != want {
		return &variant.Mismatch{Kernel: k.name, Variant: variant.GenericName, Input: "known answer: empty input, 32 bytes",
			Index: firstDiff([]byte(got), []byte(want)) / 2, Got: got, Want: want}
	}
	return nil
}

// firstDiff returns the first index where a and b differ, or -1.
func firstDiff(a, b []byte) int {
	if bytes.Equal(a, b) {
		return -1
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// window returns up to 16 bytes of b from i.
func window(b []byte, i int) []byte { return b[min(i, len(b)):min(i+16, len(b))] }

func randomBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}
