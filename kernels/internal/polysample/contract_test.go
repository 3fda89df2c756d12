package polysample

import (
	"math/rand/v2"
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
)

// TestGenericCBD2Contract: the generic mlkem.cbd2 returns canonical
// coefficients, as its contract declares, for every byte value in every
// position (each byte b fills the input) and on random inputs; the
// input contract covers every byte.
func TestGenericCBD2Contract(t *testing.T) {
	k, ok := contract.Of("mlkem.cbd2")
	if !ok {
		t.Fatal("no contract for mlkem.cbd2")
	}
	f, _ := k.Arg("f")
	b, _ := k.Arg("b")
	if b.In == nil || b.In.Lo > -128 || b.In.Hi < 127 {
		t.Fatalf("mlkem.cbd2.b in %v: not every byte", b.In)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 256 + 64 {
		var in [128]byte
		for j := range in {
			in[j] = byte(i)
			if i >= 256 {
				in[j] = byte(r.Uint32())
			}
		}
		var out [256]int16
		cbd2Generic(&out, &in)
		for j, x := range out {
			if int64(x) < f.Out.Lo || int64(x) > f.Out.Hi {
				t.Fatalf("input %d: f[%d] = %d outside %v", i, j, x, *f.Out)
			}
		}
	}
}

// TestGenericCBD3Contract: the generic mlkem.cbd3 returns canonical
// coefficients for every byte value in every position and on random
// inputs; the input contract covers every byte.
func TestGenericCBD3Contract(t *testing.T) {
	k, ok := contract.Of("mlkem.cbd3")
	if !ok {
		t.Fatal("no contract for mlkem.cbd3")
	}
	f, _ := k.Arg("f")
	b, _ := k.Arg("b")
	if b.In == nil || b.In.Lo > -128 || b.In.Hi < 127 || b.Lanes != 192 {
		t.Fatalf("mlkem.cbd3.b in %v, %d lanes: not every byte of 192", b.In, b.Lanes)
	}
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 256 + 64 {
		var in [192]byte
		for j := range in {
			in[j] = byte(i)
			if i >= 256 {
				in[j] = byte(r.Uint32())
			}
		}
		var out [256]int16
		cbd3Generic(&out, &in)
		for j, x := range out {
			if int64(x) < f.Out.Lo || int64(x) > f.Out.Hi {
				t.Fatalf("input %d: f[%d] = %d outside %v", i, j, x, *f.Out)
			}
		}
	}
}

// TestGenericExpandMaskContract: the generic mldsa.expandmask returns y
// within its output bound and yHat canonical for both widths (the
// contract's bits), for every byte value in every position and on
// random inputs; the input contract covers every byte of the longest
// input (32·20 bytes).
func TestGenericExpandMaskContract(t *testing.T) {
	k, ok := contract.Of("mldsa.expandmask")
	if !ok {
		t.Fatal("no contract for mldsa.expandmask")
	}
	ay, _ := k.Arg("y")
	ah, _ := k.Arg("yHat")
	b, _ := k.Arg("b")
	bits, _ := k.Arg("bits")
	if b.In == nil || b.In.Lo > -128 || b.In.Hi < 127 || b.Lanes < 32*20 {
		t.Fatalf("mldsa.expandmask.b in %v, %d lanes: not every byte of 640", b.In, b.Lanes)
	}
	if len(bits.Values) != 2 || bits.Values[0] != 18 || bits.Values[1] != 20 {
		t.Fatalf("mldsa.expandmask.bits values %v, want [18 20]", bits.Values)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for _, w := range bits.Values {
		for i := range 256 + 64 {
			in := make([]byte, 32*w)
			for j := range in {
				in[j] = byte(i)
				if i >= 256 {
					in[j] = byte(r.Uint32())
				}
			}
			var y, yHat [256]int32
			expandMaskGeneric(&y, &yHat, in, int(w))
			for j := range y {
				if int64(y[j]) < ay.Out.Lo || int64(y[j]) > ay.Out.Hi || int64(yHat[j]) < ah.Out.Lo || int64(yHat[j]) > ah.Out.Hi {
					t.Fatalf("bits %d, input %d: y[%d] = %d, yHat[%d] = %d outside %v, %v", w, i, j, y[j], j, yHat[j], *ay.Out, *ah.Out)
				}
			}
		}
	}
}
