package baselines

import (
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"github.com/tunelab/tunelab/kernels/keccak"
	"math/rand/v2"

	tsha3 "github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/kernels/variant"
)

// The many-stream SHAKE baselines, shake128.many and shake256.many
// ext=sha3: crypto/sha3's SHAKE on one stream after another (one hasher,
// Reset between streams, so nothing is allocated per op), on the
// kernels' sweep shape (kernels/sha3.SweepShape) with size streams,
// checked against kernels/sha3's single-stream SumSHAKE128/SumSHAKE256
// (Verify on at most 64 streams: beyond that the work only repeats).

func init() {
	keccak.RegisterVariants()
	tsha3.RegisterVariants()
	variant.Register(shakeManyVariant("shake128.many", sha3.NewSHAKE128, tsha3.SumSHAKE128),
		shakeManyVariant("shake256.many", sha3.NewSHAKE256, tsha3.SumSHAKE256))
}

func shakeManyVariant(kernel string, newXOF func() *sha3.SHAKE, ref func([]byte, int) []byte) variant.Variant {
	mk := func(size int, seed uint64) *shakeManyInstance {
		return newShakeManyInstance(kernel, newXOF, ref, size, seed)
	}
	return variant.Variant{Kernel: kernel, Name: "ext=sha3", External: true,
		New: func(size int, seed uint64) variant.Instance { return mk(size, seed) },
		Verify: func(size int, seed uint64) error {
			for i := uint64(0); i < 3; i++ {
				if err := mk(min(max(size, 1), 64), seed+i).Check(); err != nil {
					return err
				}
			}
			return nil
		}}
}

// A shakeManyInstance is size streams of the kernel's sweep shape.
type shakeManyInstance struct {
	kernel    string
	seed      uint64
	h         *sha3.SHAKE
	ref       func([]byte, int) []byte
	ins, outs [][]byte
}

func newShakeManyInstance(kernel string, newXOF func() *sha3.SHAKE, ref func([]byte, int) []byte, size int, seed uint64) *shakeManyInstance {
	inLen, outLen, ok := tsha3.SweepShape(kernel)
	if !ok {
		panic("baselines: no sweep shape for " + kernel)
	}
	rng := rand.New(rand.NewPCG(seed, 0x54a3e))
	in := &shakeManyInstance{kernel: kernel, seed: seed, h: newXOF(), ref: ref,
		ins: make([][]byte, size), outs: make([][]byte, size)}
	for i := range in.ins {
		in.ins[i], in.outs[i] = make([]byte, inLen), make([]byte, outLen)
		for j := range in.ins[i] {
			in.ins[i][j] = byte(rng.Uint32())
		}
	}
	return in
}

// Run hashes every stream n times.
func (in *shakeManyInstance) Run(n int) {
	for k := 0; k < n; k++ {
		for i, msg := range in.ins {
			in.h.Reset()
			in.h.Write(msg)
			in.h.Read(in.outs[i])
		}
	}
}

// Check hashes the streams once more and compares them with
// kernels/sha3's single-stream function.
func (in *shakeManyInstance) Check() error {
	in.Run(1)
	for i, msg := range in.ins {
		want := in.ref(msg, len(in.outs[i]))
		if !bytes.Equal(in.outs[i], want) {
			j := 0
			for in.outs[i][j] == want[j] {
				j++
			}
			return &variant.Mismatch{Kernel: in.kernel, Variant: "ext=sha3",
				Input: fmt.Sprintf("sweep input (seed %#x), stream %d of %d", in.seed, i, len(in.ins)), Index: j,
				Got: hex.EncodeToString(in.outs[i][j:min(j+16, len(want))]), Want: hex.EncodeToString(want[j:min(j+16, len(want))])}
		}
	}
	return nil
}
