package mlkem_test

import (
	"bytes"
	"testing"

	"github.com/tunelab/tunelab/kernels/mlkem"
)

// fuzzSeed is the key seed of the fuzz targets' seed corpora.
var fuzzSeed = bytes.Repeat([]byte{0x5a}, mlkem.SeedSize)

// FuzzNewEncapsulationKey parses the fuzz bytes as an encapsulation key of
// every parameter set: this package must accept exactly what every
// reference accepts, return the key unchanged, and encapsulate to it as
// the first reference does.
func FuzzNewEncapsulationKey(f *testing.F) {
	for _, ps := range paramSets {
		_, ek := ps.tunelab.mustKey(f, fuzzSeed)
		b := ek.Bytes()
		f.Add(b)
		f.Add(b[1:])
		bad := bytes.Clone(b)
		setCoefficient(bad, 7, mlkem.Q)
		f.Add(bad)
	}
	m := bytes.Repeat([]byte{0xa5}, 32)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, ps := range paramSets {
			ek, err := ps.tunelab.parse(b)
			for _, ref := range ps.refs {
				if _, rerr := ref.parse(b); (err == nil) != (rerr == nil) {
					t.Fatalf("ML-KEM-%s: error %v, %s: %v", ps.name, err, ref.name, rerr)
				}
			}
			if err != nil {
				continue
			}
			if !bytes.Equal(ek.Bytes(), b) {
				t.Fatalf("ML-KEM-%s: Bytes() is not the parsed key", ps.name)
			}
			rek, _ := ps.refs[0].parse(b)
			key, c, err := ps.tunelab.encapsulate(ek, m)
			rkey, rc, rerr := ps.refs[0].encapsulate(rek, m)
			if err != nil || rerr != nil || !bytes.Equal(c, rc) || !bytes.Equal(key, rkey) {
				t.Fatalf("ML-KEM-%s: encapsulation differs from %s (errors %v, %v)", ps.name, ps.refs[0].name, err, rerr)
			}
		}
	})
}

// FuzzDecapsulate decapsulates the fuzz ciphertext with a key pair of
// every parameter set, built once: the shared key, or the error, must be
// every reference's.
func FuzzDecapsulate(f *testing.F) {
	type keys struct {
		ps  paramSet
		dks []decapsulator // this package's, then the references'
	}
	var all []keys
	for _, ps := range paramSets {
		k := keys{ps: ps}
		for _, im := range append([]impl{ps.tunelab}, ps.refs...) {
			dk, _ := im.mustKey(f, fuzzSeed)
			k.dks = append(k.dks, dk)
		}
		all = append(all, k)
		_, ek := ps.tunelab.mustKey(f, fuzzSeed)
		_, c := ek.Encapsulate()
		f.Add(c)
		c[len(c)/2] ^= 0x10
		f.Add(c)
		f.Add(c[:len(c)-1])
	}
	f.Fuzz(func(t *testing.T, c []byte) {
		for _, k := range all {
			key, err := k.dks[0].Decapsulate(c)
			for i, rdk := range k.dks[1:] {
				rkey, rerr := rdk.Decapsulate(c)
				if (err == nil) != (rerr == nil) || !bytes.Equal(key, rkey) {
					t.Fatalf("ML-KEM-%s, %d-byte ciphertext: key %x, error %v; %s: %x, %v",
						k.ps.name, len(c), key, err, k.ps.refs[i].name, rkey, rerr)
				}
			}
		}
	})
}
