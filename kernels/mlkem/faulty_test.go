package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
)

// faultyKernels makes the package's NTT, InvNTT and MulNTT return
// pseudo-random coefficients anywhere in the int16 range (the way a wrong
// assembly variant would), until the returned function restores them.
func faultyKernels() (restore func()) {
	r := polyvec.NewRand(0xbad)
	garble := func(p *polyvec.Poly[int16]) {
		for i := range p {
			p[i] = int16(r.Uint64())
		}
	}
	undo := []func(){kernels.NTT.Swap(garble), kernels.InvNTT.Swap(garble),
		kernels.MulNTT.Swap(func(h, _, _ *polyvec.Poly[int16]) { garble(h) })}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}

// faultyCase runs one parameter set's public API end to end: key
// generation from seed, encapsulation to the key object, decapsulation of
// that ciphertext and of every ciphertext in bad, then parsing the
// encapsulation key's bytes (an error where the faulty kernels left
// coefficients out of range) and encapsulating to the parsed key.
type faultyCase struct {
	name string
	run  func(seed []byte, bad [][]byte) error
}

func faultyCases() []faultyCase {
	return []faultyCase{
		{"ML-KEM-512", func(seed []byte, bad [][]byte) error {
			dk, err := NewDecapsulationKey512(seed)
			if err != nil {
				return err
			}
			_, ct := dk.EncapsulationKey().Encapsulate()
			if err := decapsulateAll(dk.Decapsulate, append(bad, ct)); err != nil {
				return err
			}
			ek, err := NewEncapsulationKey512(dk.EncapsulationKey().Bytes())
			if err != nil {
				return err
			}
			ek.Encapsulate()
			return nil
		}},
		{"ML-KEM-768", func(seed []byte, bad [][]byte) error {
			dk, err := NewDecapsulationKey768(seed)
			if err != nil {
				return err
			}
			_, ct := dk.EncapsulationKey().Encapsulate()
			if err := decapsulateAll(dk.Decapsulate, append(bad, ct)); err != nil {
				return err
			}
			ek, err := NewEncapsulationKey768(dk.EncapsulationKey().Bytes())
			if err != nil {
				return err
			}
			ek.Encapsulate()
			return nil
		}},
		{"ML-KEM-1024", func(seed []byte, bad [][]byte) error {
			dk, err := NewDecapsulationKey1024(seed)
			if err != nil {
				return err
			}
			_, ct := dk.EncapsulationKey().Encapsulate()
			if err := decapsulateAll(dk.Decapsulate, append(bad, ct)); err != nil {
				return err
			}
			ek, err := NewEncapsulationKey1024(dk.EncapsulationKey().Bytes())
			if err != nil {
				return err
			}
			ek.Encapsulate()
			return nil
		}},
	}
}

// decapsulateAll decapsulates every ciphertext; errors for wrong sizes
// are expected and ignored.
func decapsulateAll(decaps func([]byte) ([]byte, error), cts [][]byte) error {
	for _, ct := range cts {
		_, _ = decaps(ct)
	}
	return nil
}

// TestFaultyKernelsNeverPanic checks that a wrong NTT kernel (as the
// AVX-512 regression of e5bbc2d produced) makes the public functions
// return wrong keys or shared secrets, or errors, never a panic: key
// generation, parsing the (wrong) encapsulation key, encapsulation, and
// decapsulation of its ciphertext and of random ones of every size class.
func TestFaultyKernelsNeverPanic(t *testing.T) {
	r := polyvec.NewRand(7)
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint64())
		}
		return b
	}
	var bad [][]byte
	for _, n := range []int{0, 1, 768, 1088, 1568, 1569} {
		bad = append(bad, random(n))
	}
	restore := faultyKernels()
	defer restore()
	for _, c := range faultyCases() {
		for i := range 4 {
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s, seed %d: panicked with a faulty NTT: %v", c.name, i, p)
					}
				}()
				if err := c.run(random(SeedSize), bad); err != nil {
					t.Logf("%s, seed %d: %v", c.name, i, err)
				}
			}()
		}
	}
}
