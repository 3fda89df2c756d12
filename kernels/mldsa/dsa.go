package mldsa

//go:generate go run ../../variants/dsasets

import (
	"crypto"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
)

// The whole ML-DSA operations (FIPS 204): key generation from a seed,
// pure ML-DSA signing with a context string (hedged, or deterministic with
// rnd = 0^32) and verification, for ML-DSA-44, ML-DSA-65 and ML-DSA-87.
// One implementation serves the three parameter sets (keygen.go, sign.go,
// verify.go, on a *params); the exported types of zdsa44.go, zdsa65.go
// and zdsa87.go are thin wrappers, generated from one definition
// (variants/dsasets). Every NTT, inverse NTT and NTT-domain
// product runs on the dispatched kernels NTT, InvNTT and MulNTT, every
// hash through hash.go.
//
// What the keys hold beyond their encodings: a private key keeps NTT(s1),
// NTT(s2) and NTT(t0) and shares its public key's Â, tr and ρ; a public
// key keeps Â = ExpandA(ρ), NTT(t1·2^d) and tr = H(pk, 64). Signing and
// verifying thus run no ExpandA and no NTT of a key part after the first
// time: NTT(s2), NTT(t0) and NTT(t1·2^d) are computed, once, by a key's
// first signature or verification (key generation returns the encodings
// without them).

// Options are the signing options of pure ML-DSA: a context string of at
// most 255 bytes (FIPS 204, Section 5.2). A nil *Options or crypto.Hash(0)
// means the empty context.
type Options struct {
	// Context is the context string ctx bound into the signature.
	Context string
}

// HashFunc returns 0: ML-DSA signs the message itself, not a digest
// (HashML-DSA is not implemented). It makes *Options a crypto.SignerOpts.
func (*Options) HashFunc() crypto.Hash { return 0 }

// errHash is returned when crypto.Signer's Sign is asked for a pre-hash.
var errHash = errors.New("mldsa: pre-hashed messages (HashML-DSA) are not supported; use crypto.Hash(0)")

// signerContext returns the context string opts carries for Sign.
func signerContext(opts crypto.SignerOpts) ([]byte, error) {
	if opts == nil {
		return nil, nil
	}
	if o, ok := opts.(*Options); ok {
		if o == nil {
			return nil, nil
		}
		return []byte(o.Context), nil
	}
	if h := opts.HashFunc(); h != 0 {
		return nil, fmt.Errorf("%w, got %v", errHash, h)
	}
	return nil, nil
}

// signHedged is crypto.Signer's Sign for every parameter set: rnd is 32
// bytes read from rand (crypto/rand if rand is nil).
// The signature goes to sig, an array of the parameter set's signature
// size that the exported methods declare (so that it stays on their
// caller's stack when the caller keeps no reference), and sig is returned
// on success. These functions are not inlined, so that the methods are.
//
//go:noinline
func (sk *privateKey) signHedged(rand io.Reader, msg []byte, opts crypto.SignerOpts, sig []byte) ([]byte, error) {
	ctx, err := signerContext(opts)
	if err != nil {
		return nil, err
	}
	var rnd [rndSize]byte
	if err := readRandom(rand, rnd[:]); err != nil {
		return nil, err
	}
	return sign(sk, sk.pub, msg, ctx, &rnd, sig)
}

// signDeterministic signs with rnd = 0^32 into sig.
//
//go:noinline
func (sk *privateKey) signDeterministic(msg, ctx, sig []byte) ([]byte, error) {
	var rnd [rndSize]byte
	return sign(sk, sk.pub, msg, ctx, &rnd, sig)
}

// signDeterministic is the method on a key pair given apart (tests, the
// lab).
func signDeterministic(sk *privateKey, pk *publicKey, msg, ctx, sig []byte) ([]byte, error) {
	var rnd [rndSize]byte
	return sign(sk, pk, msg, ctx, &rnd, sig)
}

// readRandom fills b from r, or from crypto/rand if r is nil. crypto/rand
// is called directly, and another reader reads into a buffer of its own,
// so that b does not escape into an interface call.
func readRandom(r io.Reader, b []byte) error {
	if r == nil || r == rand.Reader {
		rand.Read(b)
		return nil
	}
	return readFrom(r, b)
}

// readFrom fills b from r through a heap buffer r may keep.
func readFrom(r io.Reader, b []byte) error {
	buf := make([]byte, len(b))
	if _, err := io.ReadFull(r, buf); err != nil {
		return fmt.Errorf("mldsa: reading randomness: %w", err)
	}
	copy(b, buf)
	return nil
}

// generateSeed returns a fresh seed ξ from crypto/rand.
func generateSeed() []byte {
	seed := make([]byte, SeedSize)
	rand.Read(seed)
	return seed
}
