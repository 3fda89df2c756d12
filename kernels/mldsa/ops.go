package mldsa

import (
	"fmt"
	"strings"
	"sync"

	"github.com/tunelab/tunelab/internal/compose"
	"github.com/tunelab/tunelab/internal/opinputs"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/internal/polypack"
	"github.com/tunelab/tunelab/kernels/internal/polysample"
	"github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/kernels/variant"
)

// The whole-operation sweep kernels mldsa{44,65,87}.{keygen,sign,verify}
// measure what a user runs (key generation from a seed, deterministic
// signing of a 1 KiB message, verification), with variants that compose
// the kernel choices under them: the Keccak way count of the many-stream
// SHAKEs (ExpandA, ExpandS, ExpandMask) × the NTT tier (the variants
// dispatch selects at each ISA tier the host has), plus the generic
// reference. They are lab kernels: RegisterVariants registers the kernels
// and their compositions, init neither.

// signedMessage is the message size of the sign and verify operations.
const signedMessage = 1024

// operations returns the nine operations, which RegisterVariants
// registers (registerOperations): production never does.
func operations() []compose.Op {
	var ops []compose.Op
	for _, p := range []*params{&params44, &params65, &params87} {
		ops = append(ops, keygenOp(p), signOp(p), verifyOp(p))
	}
	return ops
}

var operationsOnce sync.Once

// registerOperations registers every operation's kernel and its
// compositions: lab kernels, which init leaves to RegisterVariants.
func registerOperations() {
	ops := operations()
	compose.RegisterKernels(ops...)
	poly := append(append(polysample.DSASlots(), polypack.DSASlots()...), roundKernels.lowBits, roundKernels.makeHint, roundKernels.response, roundKernels.w1Pack4, roundKernels.power2Round, matVec)
	compose.Register(ops, sha3.WaysKnob(), kernels.TierKnob(), kernelset.TierKnob("poly", poly...))
}

// opKernel describes the operation kernel op ("sign") of p, perOp units
// of unit per op.
func opKernel(p *params, op, bench, unit string, perOp int, doc string) variant.Kernel {
	set := strings.TrimPrefix(p.name, "ML-DSA-")
	return variant.Kernel{Name: "mldsa" + set + "." + op, Family: "mldsa", Bench: "MLDSA" + set + bench,
		Unit: unit, UnitsPerOp: func(int) float64 { return float64(perOp) }, Doc: p.name + " " + doc}
}

// keyPair returns the key pair of a seed's 32 bytes.
func keyPair(p *params, seed uint64) (*privateKey, *publicKey) {
	sk, pk := new(privateKey), new(publicKey)
	if err := newKey(p, opinputs.Bytes(seed, SeedSize), sk, pk); err != nil {
		panic(err)
	}
	return sk, pk
}

func keygenOp(p *params) compose.Op {
	return compose.Op{Kernel: opKernel(p, "keygen", "KeyGen", "op", 1, "key generation from a 32-byte seed"),
		New: func(seed uint64) (func(), func() []byte) {
			xi := opinputs.Bytes(seed, SeedSize)
			var sk privateKey
			var pk publicKey
			run := func() {
				if err := newKey(p, xi, &sk, &pk); err != nil {
					panic(err)
				}
			}
			return run, func() []byte { return append(append([]byte{}, pk.enc...), sk.enc...) }
		}}
}

func signOp(p *params) compose.Op {
	return compose.Op{Kernel: opKernel(p, "sign", "Sign", "sig", opinputs.Messages, perMessage("deterministic signatures")),
		New: func(seed uint64) (func(), func() []byte) {
			sk, pk := keyPair(p, seed)
			msgs := messages(seed)
			sigs := make([]byte, 0, len(msgs)*p.sigSize)
			run := func() {
				sigs = sigs[:0]
				for _, m := range msgs {
					s, err := signDeterministic(sk, pk, m, nil, make([]byte, p.sigSize))
					if err != nil {
						panic(err)
					}
					sigs = append(sigs, s...)
				}
			}
			return run, func() []byte { return sigs }
		}}
}

func verifyOp(p *params) compose.Op {
	return compose.Op{Kernel: opKernel(p, "verify", "Verify", "sig", opinputs.Messages, perMessage("verifications")),
		New: func(seed uint64) (func(), func() []byte) {
			sk, pk := keyPair(p, seed)
			msgs := messages(seed)
			sigs := make([][]byte, len(msgs))
			for i, m := range msgs {
				s, err := signDeterministic(sk, pk, m, nil, make([]byte, p.sigSize))
				if err != nil {
					panic(err)
				}
				sigs[i] = s
			}
			ok := false
			run := func() {
				for j, m := range msgs {
					if ok = verify(pk, m, nil, sigs[j]); !ok {
						panic("mldsa: " + p.name + " rejects an honest signature")
					}
				}
			}
			return run, func() []byte { return []byte{map[bool]byte{true: 1}[ok]} }
		}}
}

// perMessage documents a sign or verify operation: every op covers all
// opinputs.Messages messages, so that any number of ops per sample does the
// same work (signing time varies by message, with the restarts of FIPS
// 204's rejection loop), and figures are per signature.
func perMessage(what string) string {
	return fmt.Sprintf("%s of %d 1 KiB messages per op (time per signature)", what, opinputs.Messages)
}

// messages returns the messages of a sign or verify operation.
func messages(seed uint64) [][]byte {
	msgs := make([][]byte, opinputs.Messages)
	for i := range msgs {
		msgs[i] = opinputs.Message(seed, i, signedMessage)
	}
	return msgs
}
