package baselines

import (
	"fmt"
	"math/rand/v2"

	xpoly "golang.org/x/crypto/poly1305"

	"github.com/tunelab/tunelab/kernels/poly1305"
	"github.com/tunelab/tunelab/kernels/variant"
)

// ext=xcrypto is golang.org/x/crypto/poly1305.Sum (scalar radix 2^64
// assembly on amd64), the Poly1305 a Go user gets, checked against
// kernels/poly1305's Sum (itself verified against its generic code).

func init() {
	poly1305.RegisterVariants()
	variant.Register(variant.Variant{
		Kernel: "poly1305", Name: "ext=xcrypto", External: true,
		New: func(size int, seed uint64) variant.Instance { return newXPolyInstance(size, seed) },
		Verify: func(size int, seed uint64) error {
			for i := uint64(0); i < 4; i++ {
				if err := newXPolyInstance(size, seed+i).Check(); err != nil {
					return err
				}
			}
			return nil
		},
	})
}

// An xpolyInstance is a random one-time key and message.
type xpolyInstance struct {
	key [32]byte
	msg []byte
	tag [16]byte
}

func newXPolyInstance(size int, seed uint64) *xpolyInstance {
	rng := rand.New(rand.NewPCG(seed, 0x1305))
	in := &xpolyInstance{msg: make([]byte, size)}
	for i := range in.key {
		in.key[i] = byte(rng.Uint32())
	}
	for i := range in.msg {
		in.msg[i] = byte(rng.Uint32())
	}
	return in
}

// Run computes the tag n times.
func (in *xpolyInstance) Run(n int) {
	for i := 0; i < n; i++ {
		xpoly.Sum(&in.tag, in.msg, &in.key)
	}
}

// Check compares x/crypto's tag with kernels/poly1305's.
func (in *xpolyInstance) Check() error {
	var got, want [16]byte
	xpoly.Sum(&got, in.msg, &in.key)
	poly1305.Sum(&want, in.msg, &in.key)
	for i := range got {
		if got[i] != want[i] {
			return &variant.Mismatch{Kernel: "poly1305", Variant: "ext=xcrypto",
				Input: fmt.Sprintf("random key and %d-byte message", len(in.msg)), Index: i,
				Got: fmt.Sprintf("%x", got), Want: fmt.Sprintf("%x", want)}
		}
	}
	return nil
}
