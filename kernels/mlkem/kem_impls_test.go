package mlkem_test

import (
	stdmlkem "crypto/mlkem"
	stdmlkemtest "crypto/mlkem/mlkemtest"
	"errors"
	"testing"

	"github.com/cloudflare/circl/kem"
	circl1024 "github.com/cloudflare/circl/kem/mlkem/mlkem1024"
	circl512 "github.com/cloudflare/circl/kem/mlkem/mlkem512"
	circl768 "github.com/cloudflare/circl/kem/mlkem/mlkem768"

	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/mlkemtest"
)

// The tests and benchmarks run every implementation of every parameter
// set through one shape: this package's, crypto/mlkem's (768 and 1024)
// and circl's kem/mlkem.

// A decapsulator is a decapsulation key of any implementation.
type decapsulator interface {
	Decapsulate(ciphertext []byte) ([]byte, error)
}

// An encapsulator is an encapsulation key of any implementation.
type encapsulator interface {
	Bytes() []byte
	Encapsulate() (sharedKey, ciphertext []byte)
}

// An impl is one implementation of one parameter set.
type impl struct {
	name string
	// newKey derives the key pair of a SeedSize-byte seed d || z.
	newKey func(seed []byte) (decapsulator, encapsulator, error)
	// parse parses an encoded encapsulation key.
	parse func(ek []byte) (encapsulator, error)
	// encapsulate encapsulates to ek with the 32-byte randomness m.
	encapsulate func(ek encapsulator, m []byte) (sharedKey, ciphertext []byte, err error)
}

// A paramSet is a parameter set with its implementations; ref is the one
// the differential tests compare with first (crypto/mlkem where it has the
// set).
type paramSet struct {
	name           string
	ekSize, ctSize int
	tunelab        impl
	refs           []impl
}

// dkAPI is the method set shared by the decapsulation key types of this
// package and crypto/mlkem.
type dkAPI[EK encapsulator] interface {
	decapsulator
	EncapsulationKey() EK
}

// adapt wraps the functions of this package or of crypto/mlkem for one
// parameter set.
func adapt[DK dkAPI[EK], EK encapsulator](name string, newDK func([]byte) (DK, error),
	newEK func([]byte) (EK, error), enc func(EK, []byte) ([]byte, []byte, error)) impl {
	return impl{
		name: name,
		newKey: func(seed []byte) (decapsulator, encapsulator, error) {
			dk, err := newDK(seed)
			if err != nil {
				return nil, nil, err
			}
			return dk, dk.EncapsulationKey(), nil
		},
		parse: func(b []byte) (encapsulator, error) {
			ek, err := newEK(b)
			if err != nil {
				return nil, err
			}
			return ek, nil
		},
		encapsulate: func(ek encapsulator, m []byte) ([]byte, []byte, error) { return enc(ek.(EK), m) },
	}
}

// circlDK and circlEK adapt circl's keys.
type circlDK struct {
	s  kem.Scheme
	sk kem.PrivateKey
}

type circlEK struct {
	s  kem.Scheme
	pk kem.PublicKey
}

func (k circlDK) Decapsulate(c []byte) ([]byte, error) { return k.s.Decapsulate(k.sk, c) }

func (k circlEK) Bytes() []byte {
	b, err := k.pk.MarshalBinary()
	if err != nil {
		panic(err) // circl fails only on a key of another scheme
	}
	return b
}

func (k circlEK) Encapsulate() ([]byte, []byte) {
	c, key, err := k.s.Encapsulate(k.pk)
	if err != nil {
		panic(err)
	}
	return key, c
}

// circl wraps circl's scheme s. circl panics on a seed of the wrong
// length; the wrapper returns an error instead.
func circl(s kem.Scheme) impl {
	return impl{
		name: "circl",
		newKey: func(seed []byte) (decapsulator, encapsulator, error) {
			if len(seed) != s.SeedSize() {
				return nil, nil, errors.New("circl: seed length")
			}
			pk, sk := s.DeriveKeyPair(seed)
			return circlDK{s, sk}, circlEK{s, pk}, nil
		},
		parse: func(b []byte) (encapsulator, error) {
			pk, err := s.UnmarshalBinaryPublicKey(b)
			if err != nil {
				return nil, err
			}
			return circlEK{s, pk}, nil
		},
		encapsulate: func(ek encapsulator, m []byte) ([]byte, []byte, error) {
			c, key, err := s.EncapsulateDeterministically(ek.(circlEK).pk, m)
			return key, c, err
		},
	}
}

var paramSets = []paramSet{
	{
		name: "512", ekSize: mlkem.EncapsulationKeySize512, ctSize: mlkem.CiphertextSize512,
		tunelab: adapt("tunelab", mlkem.NewDecapsulationKey512, mlkem.NewEncapsulationKey512, mlkemtest.Encapsulate512),
		refs:    []impl{circl(circl512.Scheme())},
	},
	{
		name: "768", ekSize: mlkem.EncapsulationKeySize768, ctSize: mlkem.CiphertextSize768,
		tunelab: adapt("tunelab", mlkem.NewDecapsulationKey768, mlkem.NewEncapsulationKey768, mlkemtest.Encapsulate768),
		refs: []impl{
			adapt("stdlib", stdmlkem.NewDecapsulationKey768, stdmlkem.NewEncapsulationKey768, stdmlkemtest.Encapsulate768),
			circl(circl768.Scheme()),
		},
	},
	{
		name: "1024", ekSize: mlkem.EncapsulationKeySize1024, ctSize: mlkem.CiphertextSize1024,
		tunelab: adapt("tunelab", mlkem.NewDecapsulationKey1024, mlkem.NewEncapsulationKey1024, mlkemtest.Encapsulate1024),
		refs: []impl{
			adapt("stdlib", stdmlkem.NewDecapsulationKey1024, stdmlkem.NewEncapsulationKey1024, stdmlkemtest.Encapsulate1024),
			circl(circl1024.Scheme()),
		},
	},
}

// mustKey derives the key pair of seed with im, for seeds known valid.
func (im impl) mustKey(tb testing.TB, seed []byte) (decapsulator, encapsulator) {
	tb.Helper()
	dk, ek, err := im.newKey(seed)
	if err != nil {
		tb.Fatalf("%s: key from the seed %x: %v", im.name, seed, err)
	}
	return dk, ek
}
