package mldsa

import (
	"strings"
	"sync"

	"github.com/tunelab/tunelab/kernels/internal/compose"
	"github.com/tunelab/tunelab/kernels/internal/opinputs"
	"github.com/tunelab/tunelab/kernels/sha3"
	"github.com/tunelab/tunelab/kernels/variant"
)

// The whole-operation sweep kernels mldsa{44,65,87}.{keygen,sign,verify}
// measure what a user runs (key generation from a seed, deterministic
// signing of a 1 KiB message, verification), with variants that compose
// the kernel choices under them: the Keccak way count of the many-stream
// SHAKEs (ExpandA, ExpandS, ExpandMask) × the NTT tier (the variants
// dispatch selects at each ISA tier the host has), plus the generic
// reference. They are lab kernels: init registers the kernels,
// RegisterVariants their compositions.

// signedMessage is the message size of the sign and verify operations.
const signedMessage = 1024

var operations = func() []compose.Op {
	var ops []compose.Op
	for _, p := range []*params{&params44, &params65, &params87} {
		ops = append(ops, keygenOp(p), signOp(p), verifyOp(p))
	}
	return ops
}()

var operationsOnce sync.Once

func init() { compose.RegisterKernels(operations...) }

// registerOperations registers the compositions of every operation.
func registerOperations() { compose.Register(operations, sha3.WaysKnob(), kernels.TierKnob()) }

// opKernel describes the operation kernel op ("sign") of p.
func opKernel(p *params, op, bench, doc string) variant.Kernel {
	set := strings.TrimPrefix(p.name, "ML-DSA-")
	return variant.Kernel{Name: "mldsa" + set + "." + op, Family: "mldsa", Bench: "MLDSA" + set + bench,
		Unit: "op", UnitsPerOp: func(int) float64 { return 1 }, Doc: p.name + " " + doc}
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
	return compose.Op{Kernel: opKernel(p, "keygen", "KeyGen", "key generation from a 32-byte seed"),
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
	return compose.Op{Kernel: opKernel(p, "sign", "Sign", "deterministic signature of a 1 KiB message (8 messages in turn)"),
		New: func(seed uint64) (func(), func() []byte) {
			sk, pk := keyPair(p, seed)
			msgs := messages(seed)
			var sig []byte
			i := 0
			run := func() {
				s, err := signDeterministic(sk, pk, msgs[i%len(msgs)], nil)
				if err != nil {
					panic(err)
				}
				sig, i = s, i+1
			}
			return run, func() []byte { return sig }
		}}
}

func verifyOp(p *params) compose.Op {
	return compose.Op{Kernel: opKernel(p, "verify", "Verify", "verification of a 1 KiB message's signature (8 messages in turn)"),
		New: func(seed uint64) (func(), func() []byte) {
			sk, pk := keyPair(p, seed)
			msgs := messages(seed)
			sigs := make([][]byte, len(msgs))
			for i, m := range msgs {
				s, err := signDeterministic(sk, pk, m, nil)
				if err != nil {
					panic(err)
				}
				sigs[i] = s
			}
			ok, i := false, 0
			run := func() {
				j := i % len(msgs)
				if ok = verify(pk, msgs[j], nil, sigs[j]); !ok {
					panic("mldsa: " + p.name + " rejects an honest signature")
				}
				i++
			}
			return run, func() []byte { return []byte{map[bool]byte{true: 1}[ok]} }
		}}
}

// messages returns the messages a sign or verify operation cycles through.
func messages(seed uint64) [][]byte {
	msgs := make([][]byte, opinputs.Messages)
	for i := range msgs {
		msgs[i] = opinputs.Message(seed, i, signedMessage)
	}
	return msgs
}
