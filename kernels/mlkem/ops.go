package mlkem

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/internal/compose"
	"github.com/tunelab/tunelab/internal/opinputs"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/internal/polypack"
	"github.com/tunelab/tunelab/kernels/internal/polysample"
	"github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/kernels/variant"
)

// The whole-operation sweep kernels mlkem{512,768,1024}.{keygen,encaps,
// decaps} measure what a user runs, with variants that compose the
// kernel choices under them: the Keccak way count of the many-stream
// SHAKEs (matrix expansion, noise sampling) × the NTT tier (the NTT,
// InvNTT and MulNTT variants dispatch selects at each ISA tier the host
// has, so the space holds only what the kernel sweeps chose: at most 5 ×
// 3 compositions plus the generic reference). They are lab kernels,
// registered by RegisterVariants.

// operations returns the nine operations, which RegisterVariants
// registers (registerOperations): production never does.
func operations() []compose.Op {
	var ops []compose.Op
	for _, p := range []*params{&params512, &params768, &params1024} {
		ops = append(ops, keygenOp(p), encapsOp(p), decapsOp(p))
	}
	return ops
}

// registerOperations registers every operation's kernel and its
// compositions: lab kernels, which init leaves to RegisterVariants.
func registerOperations() {
	ops := operations()
	compose.RegisterKernels(ops...)
	compose.Register(ops, sha3.WaysKnob(), kernels.TierKnob(), kernelset.TierKnob("poly", append(append(polysample.KEMSlots(), polypack.KEMSlots()...), mulCacheSlot, matVecSlot)...))
}

// opKernel describes the operation kernel op ("keygen") of p.
func opKernel(p *params, op, bench, doc string) variant.Kernel {
	set := strings.TrimPrefix(p.name, "ML-KEM-")
	return variant.Kernel{Name: "mlkem" + set + "." + op, Family: "mlkem", Bench: "MLKEM" + set + bench,
		Unit: "op", UnitsPerOp: func(int) float64 { return 1 }, Doc: p.name + " " + doc}
}

// keygenOp generates the key pair of a seed (ML-KEM.KeyGen_internal).
func keygenOp(p *params) compose.Op {
	return compose.Op{Kernel: opKernel(p, "keygen", "KeyGen", "key generation from a 64-byte seed"),
		New: func(seed uint64) (func(), func() []byte) {
			d := opinputs.Bytes(seed, SeedSize)
			var dk *decapsulationKey
			run := func() {
				var err error
				if dk, err = newDecapsulationKey(p, d); err != nil {
					panic(err)
				}
			}
			return run, func() []byte { return dk.ek.enc }
		}}
}

// encapsOp parses an encapsulation key's bytes and encapsulates with
// fixed randomness: what a client that receives the key pays.
func encapsOp(p *params) compose.Op {
	return compose.Op{Kernel: opKernel(p, "encaps", "Encaps", "encapsulation from the encapsulation key's bytes"),
		New: func(seed uint64) (func(), func() []byte) {
			ek, m := keyBytes(p, seed), (*[msgSize]byte)(opinputs.Bytes(^seed, msgSize))
			out := make([]byte, SharedKeySize+p.ctSize())
			run := func() {
				key, err := newEncapsulationKey(p, ek)
				if err != nil {
					panic(err)
				}
				key.encapsulate(out, m)
			}
			return run, func() []byte { return out }
		}}
}

// decapsOp decapsulates a ciphertext with a generated key.
func decapsOp(p *params) compose.Op {
	return compose.Op{Kernel: opKernel(p, "decaps", "Decaps", "decapsulation"),
		New: func(seed uint64) (func(), func() []byte) {
			dk, err := newDecapsulationKey(p, opinputs.Bytes(seed, SeedSize))
			if err != nil {
				panic(err)
			}
			kc := make([]byte, SharedKeySize+p.ctSize())
			dk.ek.encapsulate(kc, (*[msgSize]byte)(opinputs.Bytes(^seed, msgSize)))
			c := kc[SharedKeySize:]
			var out [SharedKeySize]byte
			run := func() {
				if err := dk.decapsulate(&out, c); err != nil {
					panic(fmt.Sprintf("mlkem: %s decapsulation of an honest ciphertext: %v", p.name, err))
				}
			}
			return run, func() []byte { return out[:] }
		}}
}

// keyBytes returns the encoded encapsulation key of a seed's key pair.
func keyBytes(p *params, seed uint64) []byte {
	dk, err := newDecapsulationKey(p, opinputs.Bytes(seed, SeedSize))
	if err != nil {
		panic(err)
	}
	return dk.ek.enc
}
