package baselines

import (
	"bytes"
	"fmt"
	"github.com/tunelab/tunelab/lab/operations"

	"github.com/cloudflare/circl/sign/mldsa/mldsa44"
	"github.com/cloudflare/circl/sign/mldsa/mldsa65"
	"github.com/cloudflare/circl/sign/mldsa/mldsa87"
	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/opinputs"
)

// The ML-DSA whole-operation baselines: ext=circl (circl's sign/mldsa,
// deterministic signing) on the same work as the mldsa{44,65,87}.{keygen,
// sign,verify} compositions: key generation from a seed, signing
// opinputs.Messages 1 KiB messages per op, verifying their signatures.
// Each is verified against kernels/mldsa on the same inputs.

// A dsaImpl is one implementation of one parameter set: key generation
// returns the encoded public and private keys and a signer and verifier
// for the key pair.
type dsaImpl func(seed []byte) (pk, sk []byte, sign func(msg []byte) []byte, verify func(msg, sig []byte) bool)

// init registers the ext=circl variants of the operation kernels, which
// operations.RegisterVariants registers first (it is idempotent).
func init() {
	operations.RegisterVariants()
	sets := []struct {
		set         string
		circl, ours dsaImpl
	}{
		{"44", circl44, ours44},
		{"65", circl65, ours65},
		{"87", circl87, ours87},
	}
	for _, s := range sets {
		for _, op := range []string{"keygen", "sign", "verify"} {
			op, s := op, s
			variant.Register(variant.Variant{Kernel: "mldsa" + s.set + "." + op, Name: "ext=circl", External: true,
				New:    func(_ int, seed uint64) variant.Instance { return newDSAInstance(op, s.circl, s.ours, seed) },
				Verify: func(_ int, seed uint64) error { return newDSAInstance(op, s.circl, s.ours, seed).Check() }})
		}
	}
}

// A dsaInstance runs one operation of a reference on the inputs of
// kernels/mldsa's compositions for the same seed: the key pair of its
// seed, and opinputs.Messages messages, all signed or verified by each op.
type dsaInstance struct {
	op      string
	im, ref dsaImpl
	seed    []byte
	msgs    [][]byte
	sigs    [][]byte
	sign    func([]byte) []byte
	verify  func([]byte, []byte) bool
}

func newDSAInstance(op string, im, ref dsaImpl, seed uint64) *dsaInstance {
	in := &dsaInstance{op: op, im: im, ref: ref, seed: opinputs.Bytes(seed, mldsa.SeedSize)}
	_, _, in.sign, in.verify = im(in.seed)
	for i := range opinputs.Messages {
		m := opinputs.Message(seed, i, 1024)
		in.msgs, in.sigs = append(in.msgs, m), append(in.sigs, in.sign(m))
	}
	return in
}

// Run performs the operation n times; a sign or verify op covers every
// message, as the compositions' do.
func (in *dsaInstance) Run(n int) {
	for range n {
		switch in.op {
		case "keygen":
			in.im(in.seed)
		case "sign":
			for j, m := range in.msgs {
				in.sigs[j] = in.sign(m)
			}
		default:
			for j, m := range in.msgs {
				if !in.verify(m, in.sigs[j]) {
					panic("baselines: an honest signature does not verify")
				}
			}
		}
	}
}

// Check compares the reference's keys and deterministic signature with
// kernels/mldsa's, and its verification of them.
func (in *dsaInstance) Check() error {
	pk, sk, sign, verify := in.im(in.seed)
	wpk, wsk, wsign, _ := in.ref(in.seed)
	msg := in.msgs[0]
	sig := sign(msg)
	switch {
	case !bytes.Equal(pk, wpk) || !bytes.Equal(sk, wsk):
		return fmt.Errorf("baselines: ML-DSA keys disagree with kernels/mldsa")
	case !bytes.Equal(sig, wsign(msg)):
		return fmt.Errorf("baselines: ML-DSA deterministic signature disagrees with kernels/mldsa")
	case !verify(msg, sig) || verify(append([]byte{1}, msg...), sig):
		return fmt.Errorf("baselines: ML-DSA verification is wrong")
	}
	return nil
}

var (
	circl44 = circlDSA(mldsa44.NewKeyFromSeed, mldsa44.SignTo, mldsa44.Verify, mldsa44.SignatureSize)
	circl65 = circlDSA(mldsa65.NewKeyFromSeed, mldsa65.SignTo, mldsa65.Verify, mldsa65.SignatureSize)
	circl87 = circlDSA(mldsa87.NewKeyFromSeed, mldsa87.SignTo, mldsa87.Verify, mldsa87.SignatureSize)
	ours44  = oursDSA(mldsa.NewPrivateKey44, mldsa.Verify44)
	ours65  = oursDSA(mldsa.NewPrivateKey65, mldsa.Verify65)
	ours87  = oursDSA(mldsa.NewPrivateKey87, mldsa.Verify87)
)

type encoded interface{ Bytes() []byte }

// circlDSA wraps one of circl's ML-DSA packages (deterministic signing).
func circlDSA[PK, SK encoded](newKey func(*[mldsa.SeedSize]byte) (PK, SK),
	signTo func(sk SK, msg, ctx []byte, randomized bool, sig []byte) error,
	verify func(pk PK, msg, ctx, sig []byte) bool, sigSize int) dsaImpl {
	return func(seed []byte) ([]byte, []byte, func([]byte) []byte, func([]byte, []byte) bool) {
		pk, sk := newKey((*[mldsa.SeedSize]byte)(seed))
		return pk.Bytes(), sk.Bytes(), func(m []byte) []byte {
				sig := make([]byte, sigSize)
				must(struct{}{}, signTo(sk, m, nil, false, sig))
				return sig
			},
			func(m, sig []byte) bool { return verify(pk, m, nil, sig) }
	}
}

// oursDSA wraps one parameter set of kernels/mldsa's public API.
func oursDSA[SK interface {
	encoded
	PublicKey() PK
	SignDeterministic(msg, ctx []byte) ([]byte, error)
}, PK encoded](newKey func(seed []byte) (SK, error), verify func(pk PK, msg, ctx, sig []byte) bool) dsaImpl {
	return func(seed []byte) ([]byte, []byte, func([]byte) []byte, func([]byte, []byte) bool) {
		sk := must(newKey(seed))
		pk := sk.PublicKey()
		return pk.Bytes(), sk.Bytes(), func(m []byte) []byte { return must(sk.SignDeterministic(m, nil)) },
			func(m, sig []byte) bool { return verify(pk, m, nil, sig) }
	}
}
