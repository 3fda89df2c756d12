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
