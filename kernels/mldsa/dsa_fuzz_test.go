package mldsa

import (
	"bytes"
	"testing"
)

// FuzzNewPublicKey decodes arbitrary bytes as a public key of each
// parameter set: exactly the right length must decode, and the key must
// re-encode to the same bytes and verify nothing it did not sign, without
// panicking.
func FuzzNewPublicKey(f *testing.F) {
	for _, set := range testSets {
		k := mustKeyF(f, set)
		f.Add(k.pk)
		f.Add(k.pk[:len(k.pk)-1])
	}
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, set := range testSets {
			verify, err := set.newPub(b)
			if (err == nil) != (len(b) == set.p.pkSize) {
				t.Fatalf("%s: NewPublicKey of %d bytes: error %v", set.name, len(b), err)
			}
			if err == nil && verify([]byte("m"), nil, make([]byte, set.p.sigSize)) {
				t.Fatalf("%s: a zero signature verifies under a fuzzed public key", set.name)
			}
		}
	})
}

// FuzzVerify verifies arbitrary signatures, messages and contexts under a
// fixed key of each parameter set, and requires the same answer as circl
// (for contexts circl accepts too), never a panic.
func FuzzVerify(f *testing.F) {
	keys := make([]*testKey, len(testSets))
	refs := make([]*testKey, len(testSets))
	for i, set := range testSets {
		keys[i] = mustKeyF(f, set)
		refs[i] = set.circl((*[SeedSize]byte)(keys[i].seed))
		sig, err := keys[i].signDet([]byte("fuzz"), []byte("ctx"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(sig, []byte("fuzz"), []byte("ctx"))
		f.Add(sig[:len(sig)-1], []byte("fuzz"), []byte("ctx"))
	}
	f.Fuzz(func(t *testing.T, sig, msg, ctx []byte) {
		for i, set := range testSets {
			got := keys[i].verify(msg, ctx, sig)
			if len(sig) != set.p.sigSize {
				if got {
					t.Fatalf("%s: a %d-byte signature verifies", set.name, len(sig))
				}
				continue
			}
			if want := refs[i].verify(msg, ctx, sig); got != want {
				t.Fatalf("%s: Verify = %v, circl %v, for signature %x", set.name, got, want, sig)
			}
		}
	})
}

// mustKeyF returns a fixed key pair of set for a fuzz target.
func mustKeyF(f *testing.F, set testSet) *testKey {
	k, err := set.newKey(bytes.Repeat([]byte{7}, SeedSize))
	if err != nil {
		f.Fatal(err)
	}
	return k
}
