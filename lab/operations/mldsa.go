package operations

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/compose"
	"github.com/tunelab/tunelab/lab/opinputs"
)

// signedMessage is the message size of the sign and verify operations.
const signedMessage = 1024

// A dsaSet is one ML-DSA parameter set's public API: SK its private key,
// PK its public key.
type dsaSet[SK dsaSigner[PK], PK interface{ Bytes() []byte }] struct {
	set    string // "65"
	newSK  func(seed []byte) (SK, error)
	verify func(pk PK, msg, context, sig []byte) bool
}

// A dsaSigner is a private key of public keys PK.
type dsaSigner[PK any] interface {
	Bytes() []byte
	PublicKey() PK
	SignDeterministic(msg, context []byte) ([]byte, error)
}

// dsaOperations returns the nine ML-DSA operations.
func dsaOperations() []compose.Op {
	var ops []compose.Op
	ops = append(ops, dsaSet[*mldsa.PrivateKey44, *mldsa.PublicKey44]{"44", mldsa.NewPrivateKey44, mldsa.Verify44}.ops()...)
	ops = append(ops, dsaSet[*mldsa.PrivateKey65, *mldsa.PublicKey65]{"65", mldsa.NewPrivateKey65, mldsa.Verify65}.ops()...)
	ops = append(ops, dsaSet[*mldsa.PrivateKey87, *mldsa.PublicKey87]{"87", mldsa.NewPrivateKey87, mldsa.Verify87}.ops()...)
	return ops
}

// ops returns the set's key generation, signing and verification.
func (p dsaSet[SK, PK]) ops() []compose.Op { return []compose.Op{p.keygen(), p.signOp(), p.verifyOp()} }

// kernel describes the operation kernel op ("sign") of the set, perOp
// units of unit per op.
func (p dsaSet[SK, PK]) kernel(op, bench, unit string, perOp int, doc string) variant.Kernel {
	return variant.Kernel{Name: "mldsa" + p.set + "." + op, Family: "mldsa", Bench: "MLDSA" + p.set + bench,
		Unit: unit, UnitsPerOp: func(int) float64 { return float64(perOp) }, Doc: "ML-DSA-" + p.set + " " + doc}
}

// key returns the private key of seed's 32 bytes.
func (p dsaSet[SK, PK]) key(seed uint64) SK {
	sk, err := p.newSK(opinputs.Bytes(seed, mldsa.SeedSize))
	if err != nil {
		panic(fmt.Sprintf("operations: ML-DSA-%s key generation: %v", p.set, err))
	}
	return sk
}

func (p dsaSet[SK, PK]) keygen() compose.Op {
	return compose.Op{Kernel: p.kernel("keygen", "KeyGen", "op", 1, "key generation from a 32-byte seed"),
		New: func(seed uint64) (func(), func() []byte) {
			var sk SK
			run := func() { sk = p.key(seed) }
			return run, func() []byte { return append(sk.PublicKey().Bytes(), sk.Bytes()...) }
		}}
}

// sign returns the deterministic signature of m.
func (p dsaSet[SK, PK]) sign(sk SK, m []byte) []byte {
	s, err := sk.SignDeterministic(m, nil)
	if err != nil {
		panic(fmt.Sprintf("operations: ML-DSA-%s signing: %v", p.set, err))
	}
	return s
}

func (p dsaSet[SK, PK]) signOp() compose.Op {
	return compose.Op{Kernel: p.kernel("sign", "Sign", "sig", opinputs.Messages, perMessage("deterministic signatures")),
		New: func(seed uint64) (func(), func() []byte) {
			sk, msgs := p.key(seed), messages(seed)
			var sigs []byte
			run := func() {
				sigs = sigs[:0]
				for _, m := range msgs {
					sigs = append(sigs, p.sign(sk, m)...)
				}
			}
			return run, func() []byte { return sigs }
		}}
}

func (p dsaSet[SK, PK]) verifyOp() compose.Op {
	return compose.Op{Kernel: p.kernel("verify", "Verify", "sig", opinputs.Messages, perMessage("verifications")),
		New: func(seed uint64) (func(), func() []byte) {
			sk, msgs := p.key(seed), messages(seed)
			pk := sk.PublicKey()
			sigs := make([][]byte, len(msgs))
			for i, m := range msgs {
				sigs[i] = p.sign(sk, m)
			}
			ok := false
			run := func() {
				for j, m := range msgs {
					if ok = p.verify(pk, m, nil, sigs[j]); !ok {
						panic("operations: ML-DSA-" + p.set + " rejects an honest signature")
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
