package baselines

import (
	"bytes"
	stdmlkem "crypto/mlkem"
	stdmlkemtest "crypto/mlkem/mlkemtest"
	"fmt"
	"github.com/tunelab/tunelab/lab/operations"

	"github.com/cloudflare/circl/kem"
	"github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	"github.com/cloudflare/circl/kem/mlkem/mlkem512"
	"github.com/cloudflare/circl/kem/mlkem/mlkem768"
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/mlkemtest"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/opinputs"
)

// The ML-KEM whole-operation baselines, measured on the same work as the
// mlkem{512,768,1024}.{keygen,encaps,decaps} compositions:
//   - ext=stdlib: crypto/mlkem (768 and 1024; it has no ML-KEM-512), with
//     crypto/mlkem/mlkemtest for derandomized encapsulation;
//   - ext=circl: circl's kem/mlkem through its kem.Scheme (it keeps the
//     expanded matrix in the public key, as kernels/mlkem does).
// Encapsulation parses the key's bytes first in both, as the compositions
// do. Each is verified against kernels/mlkem on the same inputs.

// A kemImpl is one reference implementation of one parameter set.
type kemImpl struct {
	keygen func(seed []byte) (ek []byte)
	encaps func(ek, m []byte) (ss, ct []byte)
	// decapsFrom prepares decapsulation of ct with seed's key pair.
	decapsFrom func(seed, ct []byte) func() []byte
}

// ours is kernels/mlkem's implementation of a parameter set, the
// reference the baselines are verified against.
type ours struct {
	keygen func(seed []byte) []byte
	encaps func(ek, m []byte) (ss, ct []byte)
	decaps func(seed, ct []byte) []byte
}

// init registers the ext=circl and ext=stdlib variants of the operation
// kernels, which operations.RegisterVariants registers first (it is
// idempotent).
func init() {
	operations.RegisterVariants()
	sets := []struct {
		set    string
		ours   ours
		stdlib *kemImpl
		circl  kem.Scheme
	}{
		{"512", ours512(), nil, mlkem512.Scheme()},
		{"768", ours768(), stdlib768(), mlkem768.Scheme()},
		{"1024", ours1024(), stdlib1024(), mlkem1024.Scheme()},
	}
	for _, s := range sets {
		registerKEM("mlkem"+s.set, "ext=circl", circlKEM(s.circl), s.ours)
		if s.stdlib != nil {
			registerKEM("mlkem"+s.set, "ext=stdlib", s.stdlib, s.ours)
		}
	}
}

// registerKEM registers im's three operation variants.
func registerKEM(prefix, name string, im *kemImpl, ref ours) {
	for _, op := range []string{"keygen", "encaps", "decaps"} {
		op := op
		variant.Register(variant.Variant{Kernel: prefix + "." + op, Name: name, External: true,
			New: func(_ int, seed uint64) variant.Instance { return newKEMInstance(op, im, ref, seed) },
			Verify: func(_ int, seed uint64) error {
				return newKEMInstance(op, im, ref, seed).Check()
			}})
	}
}

// A kemInstance runs one operation of a reference on fixed inputs.
type kemInstance struct {
	op       string
	im       *kemImpl
	ref      ours
	seed, m  []byte
	ek, ct   []byte
	decap    func() []byte
	lastSize int
}

func newKEMInstance(op string, im *kemImpl, ref ours, seed uint64) *kemInstance {
	// The inputs of kernels/mlkem's compositions for the same seed.
	in := &kemInstance{op: op, im: im, ref: ref, seed: opinputs.Bytes(seed, 64), m: opinputs.Bytes(^seed, 32)}
	in.ek = ref.keygen(in.seed)
	_, in.ct = ref.encaps(in.ek, in.m)
	in.decap = im.decapsFrom(in.seed, in.ct)
	return in
}

// Run performs the operation n times.
func (in *kemInstance) Run(n int) {
	for i := 0; i < n; i++ {
		switch in.op {
		case "keygen":
			in.lastSize = len(in.im.keygen(in.seed))
		case "encaps":
			ss, _ := in.im.encaps(in.ek, in.m)
			in.lastSize = len(ss)
		default:
			in.lastSize = len(in.decap())
		}
	}
}

// Check compares the reference's outputs with kernels/mlkem's.
func (in *kemInstance) Check() error {
	var got, want []byte
	switch in.op {
	case "keygen":
		got, want = in.im.keygen(in.seed), in.ek
	case "encaps":
		ss, ct := in.im.encaps(in.ek, in.m)
		wss, wct := in.ref.encaps(in.ek, in.m)
		got, want = append(ss, ct...), append(wss, wct...)
	default:
		got, want = in.decap(), in.ref.decaps(in.seed, in.ct)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("baselines: %s reference disagrees with kernels/mlkem", in.op)
	}
	return nil
}

// circlKEM wraps one of circl's schemes.
func circlKEM(s kem.Scheme) *kemImpl {
	return &kemImpl{
		keygen: func(seed []byte) []byte {
			pk, _ := s.DeriveKeyPair(seed)
			b, _ := pk.MarshalBinary()
			return b
		},
		encaps: func(ek, m []byte) ([]byte, []byte) {
			pk, err := s.UnmarshalBinaryPublicKey(ek)
			if err != nil {
				panic(err)
			}
			ct, ss, err := s.EncapsulateDeterministically(pk, m)
			if err != nil {
				panic(err)
			}
			return ss, ct
		},
		decapsFrom: func(seed, ct []byte) func() []byte {
			_, sk := s.DeriveKeyPair(seed)
			return func() []byte {
				ss, err := s.Decapsulate(sk, ct)
				if err != nil {
					panic(err)
				}
				return ss
			}
		},
	}
}

// stdlib768 and stdlib1024 wrap crypto/mlkem.
func stdlib768() *kemImpl {
	return kemOf(stdmlkem.NewDecapsulationKey768, stdmlkem.NewEncapsulationKey768, stdmlkemtest.Encapsulate768)
}

func stdlib1024() *kemImpl {
	return kemOf(stdmlkem.NewDecapsulationKey1024, stdmlkem.NewEncapsulationKey1024, stdmlkemtest.Encapsulate1024)
}

// ours512, ours768 and ours1024 are kernels/mlkem through its public API.
func ours512() ours {
	return oursOf(kemOf(mlkem.NewDecapsulationKey512, mlkem.NewEncapsulationKey512, mlkemtest.Encapsulate512))
}

func ours768() ours {
	return oursOf(kemOf(mlkem.NewDecapsulationKey768, mlkem.NewEncapsulationKey768, mlkemtest.Encapsulate768))
}

func ours1024() ours {
	return oursOf(kemOf(mlkem.NewDecapsulationKey1024, mlkem.NewEncapsulationKey1024, mlkemtest.Encapsulate1024))
}

// A decapsulationKey is what crypto/mlkem's and kernels/mlkem's
// decapsulation keys of one parameter set have in common.
type decapsulationKey[EK interface{ Bytes() []byte }] interface {
	Decapsulate(ciphertext []byte) ([]byte, error)
	EncapsulationKey() EK
}

// kemOf builds a kemImpl from an API with crypto/mlkem's shapes: key
// generation from a seed, parsing an encapsulation key, and derandomized
// encapsulation (mlkemtest); an error is a broken baseline and panics.
func kemOf[D decapsulationKey[EK], EK interface{ Bytes() []byte }](
	newDK func(seed []byte) (D, error), newEK func(b []byte) (EK, error), encaps func(ek EK, m []byte) ([]byte, []byte, error)) *kemImpl {
	return &kemImpl{
		keygen: func(seed []byte) []byte { return must(newDK(seed)).EncapsulationKey().Bytes() },
		encaps: func(ek, m []byte) ([]byte, []byte) { return must2(encaps(must(newEK(ek)), m)) },
		decapsFrom: func(seed, ct []byte) func() []byte {
			dk := must(newDK(seed))
			return func() []byte { return must(dk.Decapsulate(ct)) }
		},
	}
}

// oursOf turns a kemImpl into the reference the baselines are checked
// against.
func oursOf(im *kemImpl) ours {
	return ours{keygen: im.keygen, encaps: im.encaps, decaps: func(seed, ct []byte) []byte { return im.decapsFrom(seed, ct)() }}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func must2[T, U any](a T, b U, err error) (T, U) {
	if err != nil {
		panic(err)
	}
	return a, b
}
