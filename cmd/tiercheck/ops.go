package main

import (
	"bytes"
	"crypto"
	"io"

	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/mlkemtest"
	"github.com/tunelab/tunelab/kernels/sha3"
)

// The whole operations run once per size: on an all-zero seed at size 0,
// an all-ones seed at size 1 and stream seeds otherwise; sizes only set
// the length of what is hashed or signed. Each writes what a user gets
// back (keys, ciphertexts, shared keys, signatures, verdicts).

// opSeed returns an n-byte seed: zero at size 0, all ones at size 1,
// else from the stream.
func opSeed(x *ctx, n int) []byte {
	s := make([]byte, n)
	switch x.size {
	case 0:
	case 1:
		for i := range s {
			s[i] = 0xff
		}
	default:
		x.rng.fill(s)
	}
	return s
}

// opMessageMax bounds the messages signed: longer ones only hash more
// (sha3.Sum256 and SHAKE128 cover long inputs).
const opMessageMax = 4096

// A kemSet is one ML-KEM parameter set: key generation from a seed d || z
// (encapsulation key bytes and the decapsulation function) and
// derandomized encapsulation to encapsulation key bytes.
type kemSet struct {
	keygen func(seed []byte) (ek []byte, decaps func(ct []byte) ([]byte, error), err error)
	encaps func(ek, random []byte) (ss, ct []byte, err error)
}

// A decapsKey is an ML-KEM decapsulation key of kernels/mlkem.
type decapsKey[EK any] interface {
	EncapsulationKey() EK
	Decapsulate(ct []byte) ([]byte, error)
}

// kemOf returns the kemSet of one parameter set's functions.
func kemOf[DK decapsKey[EK], EK interface{ Bytes() []byte }](newDK func([]byte) (DK, error), newEK func([]byte) (EK, error),
	encaps func(EK, []byte) ([]byte, []byte, error)) kemSet {
	return kemSet{
		keygen: func(seed []byte) ([]byte, func([]byte) ([]byte, error), error) {
			dk, err := newDK(seed)
			if err != nil {
				return nil, nil, err
			}
			return dk.EncapsulationKey().Bytes(), dk.Decapsulate, nil
		},
		encaps: func(ekb, random []byte) ([]byte, []byte, error) {
			ek, err := newEK(ekb)
			if err != nil {
				return nil, nil, err
			}
			return encaps(ek, random)
		},
	}
}

var (
	kem512  = kemOf(mlkem.NewDecapsulationKey512, mlkem.NewEncapsulationKey512, mlkemtest.Encapsulate512)
	kem768  = kemOf(mlkem.NewDecapsulationKey768, mlkem.NewEncapsulationKey768, mlkemtest.Encapsulate768)
	kem1024 = kemOf(mlkem.NewDecapsulationKey1024, mlkem.NewEncapsulationKey1024, mlkemtest.Encapsulate1024)
)

// kemKeygen outputs the encapsulation key of a seed.
func kemKeygen(k kemSet) func(*ctx, int) {
	return func(x *ctx, _ int) {
		ek, _, err := k.keygen(opSeed(x, mlkem.SeedSize))
		x.calls++
		if err != nil {
			x.failf("keygen: %v", err)
			return
		}
		x.out(ek)
	}
}

// kemInputs returns the key pair of a seed: the encapsulation key bytes
// and the decapsulation function.
func kemInputs(x *ctx, k kemSet) ([]byte, func(ct []byte) ([]byte, error), bool) {
	ek, decaps, err := k.keygen(opSeed(x, mlkem.SeedSize))
	if err != nil {
		x.failf("keygen: %v", err)
		return nil, nil, false
	}
	return ek, decaps, true
}

// kemEncaps outputs the ciphertext and shared key of a derandomized
// encapsulation to a parsed encapsulation key.
func kemEncaps(k kemSet) func(*ctx, int) {
	return func(x *ctx, _ int) {
		ek, _, ok := kemInputs(x, k)
		if !ok {
			return
		}
		ss, ct, err := k.encaps(ek, opSeed(x, 32))
		x.calls += 2
		if err != nil {
			x.failf("encaps: %v", err)
			return
		}
		x.out(ct)
		x.out(ss)
	}
}

// kemDecaps decapsulates a ciphertext, which must give the encapsulated
// key, and the ciphertext with one bit flipped, which must give another
// (the implicit-rejection key, also output).
func kemDecaps(k kemSet) func(*ctx, int) {
	return func(x *ctx, n int) {
		ek, decaps, ok := kemInputs(x, k)
		if !ok {
			return
		}
		want, ct, err := k.encaps(ek, opSeed(x, 32))
		if err != nil {
			x.failf("encaps: %v", err)
			return
		}
		ss, err1 := decaps(ct)
		ct[n%len(ct)] ^= 1 << (n % 8)
		rej, err2 := decaps(ct)
		x.calls += 4
		if err1 != nil || err2 != nil {
			x.failf("decaps: %v, %v", err1, err2)
			return
		}
		if !bytes.Equal(ss, want) || bytes.Equal(rej, want) {
			x.failf("decaps gives %x (encapsulated %x), %x after a flipped bit", ss, want, rej)
		}
		x.out(ss)
		x.out(rej)
	}
}

// A dsaSet is one ML-DSA parameter set: key generation from a seed, and
// signing and verification with the key pair (verification on public key
// bytes parsed again).
type dsaSet struct {
	keygen func(seed []byte) (*dsaKey, error)
}

// A dsaKey is a key pair of one parameter set.
type dsaKey struct {
	pk, sk     []byte
	signDet    func(msg, context []byte) ([]byte, error)
	signHedged func(rand io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error)
	verify     func(msg, context, sig []byte) bool
	pkErr      error
}

// A privateKey is an ML-DSA private key of kernels/mldsa.
type privateKey[PK any] interface {
	PublicKey() PK
	Bytes() []byte
	SignDeterministic(msg, context []byte) ([]byte, error)
	Sign(rand io.Reader, msg []byte, opts crypto.SignerOpts) ([]byte, error)
}

// dsaOf returns the dsaSet of one parameter set's functions.
func dsaOf[SK privateKey[PK], PK interface{ Bytes() []byte }](newSK func([]byte) (SK, error), newPK func([]byte) (PK, error),
	verify func(PK, []byte, []byte, []byte) bool) dsaSet {
	return dsaSet{keygen: func(seed []byte) (*dsaKey, error) {
		sk, err := newSK(seed)
		if err != nil {
			return nil, err
		}
		k := &dsaKey{pk: sk.PublicKey().Bytes(), sk: sk.Bytes(), signDet: sk.SignDeterministic, signHedged: sk.Sign}
		pk, err := newPK(k.pk)
		k.pkErr = err
		k.verify = func(msg, context, sig []byte) bool { return err == nil && verify(pk, msg, context, sig) }
		return k, nil
	}}
}

var (
	dsa44 = dsaOf(mldsa.NewPrivateKey44, mldsa.NewPublicKey44, mldsa.Verify44)
	dsa65 = dsaOf(mldsa.NewPrivateKey65, mldsa.NewPublicKey65, mldsa.Verify65)
	dsa87 = dsaOf(mldsa.NewPrivateKey87, mldsa.NewPublicKey87, mldsa.Verify87)
)

// dsaKeygen outputs the public and private key encodings of a seed.
func dsaKeygen(d dsaSet) func(*ctx, int) {
	return func(x *ctx, _ int) {
		k, err := d.keygen(opSeed(x, mldsa.SeedSize))
		x.calls++
		if err != nil {
			x.failf("keygen: %v", err)
			return
		}
		x.out(k.pk)
		x.out(k.sk)
	}
}

// dsaInputs returns a key pair, a message of up to opMessageMax bytes and
// a context string of n%256 bytes.
func dsaInputs(x *ctx, d dsaSet, n int) (*dsaKey, []byte, []byte, bool) {
	k, err := d.keygen(opSeed(x, mldsa.SeedSize))
	if err != nil {
		x.failf("keygen: %v", err)
		return nil, nil, nil, false
	}
	if k.pkErr != nil {
		x.failf("parsing its own public key: %v", k.pkErr)
	}
	msg := message(x, min(n, opMessageMax))
	context := make([]byte, n%256)
	x.rng.fill(context)
	return k, msg, context, true
}

// dsaSign outputs the deterministic signature and a hedged one whose
// randomness comes from the stream.
func dsaSign(d dsaSet) func(*ctx, int) {
	return func(x *ctx, n int) {
		k, msg, context, ok := dsaInputs(x, d, n)
		if !ok {
			return
		}
		det, err1 := k.signDet(msg, context)
		hedged, err2 := k.signHedged(streamReader{x.rng}, msg, &mldsa.Options{Context: string(context)})
		x.calls += 2
		if err1 != nil || err2 != nil {
			x.failf("sign: %v, %v", err1, err2)
			return
		}
		x.out(det)
		x.out(hedged)
	}
}

// dsaVerify verifies a signature, which must pass, and the signature with
// one bit flipped and under another context, which must not; the three
// verdicts are the output.
func dsaVerify(d dsaSet) func(*ctx, int) {
	return func(x *ctx, n int) {
		k, msg, context, ok := dsaInputs(x, d, n)
		if !ok {
			return
		}
		sig, err := k.signDet(msg, context)
		if err != nil {
			x.failf("sign: %v", err)
			return
		}
		good := k.verify(msg, context, sig)
		other := k.verify(msg, append(context, 0), sig)
		sig[n%len(sig)] ^= 1 << (n % 8)
		flipped := k.verify(msg, context, sig)
		x.calls += 4
		if !good || other || flipped {
			x.failf("Verify = %v, under another context %v, with a flipped bit %v", good, other, flipped)
		}
		x.out([]byte{b2u(good), b2u(other), b2u(flipped)})
	}
}

// A streamReader reads stream bytes (a hedged signature's randomness).
type streamReader struct{ r *stream }

func (s streamReader) Read(p []byte) (int, error) {
	s.r.fill(p)
	return len(p), nil
}

// sha3Sums digests an n-byte message with SHA3-224, -384 and -512.
func sha3Sums(x *ctx, n int) {
	m := message(x, n)
	d224, d384, d512 := sha3.Sum224(m), sha3.Sum384(m), sha3.Sum512(m)
	x.calls += 3
	x.out(d224[:])
	x.out(d384[:])
	x.out(d512[:])
}

// shake256Sum squeezes n%1000+1 bytes of SHAKE256 from an n-byte message
// in one call.
func shake256Sum(x *ctx, n int) {
	out := sha3.SumSHAKE256(message(x, n), n%1000+1)
	x.calls++
	x.out(out)
}
