package aesecb

import (
	"crypto/aes"
	"encoding/hex"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatalf("bad hex %q: %v", s, err)
	}
	return b
}

// stdCrypt crypts src block by block with crypto/aes, the independent
// reference of the differential tests.
func stdCrypt(t testing.TB, key []byte, dec bool, src []byte) []byte {
	t.Helper()
	b, err := aes.NewCipher(key)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]byte, len(src))
	for i := 0; i+16 <= len(src); i += 16 {
		if dec {
			b.Decrypt(out[i:], src[i:])
		} else {
			b.Encrypt(out[i:], src[i:])
		}
	}
	return out
}

// implementation is one runnable function of a kernel: the generic code or
// a generated variant (offset-sweep members included).
type implementation struct {
	name string
	fn   cryptFunc
}

// implementations returns the generic function and every generated variant
// of k the host can run; the others are skipped with t.Logf naming the
// missing feature (t.Skip would hide the runnable ones).
func implementations(t testing.TB, k *kernel) []implementation {
	t.Helper()
	out := []implementation{{variant.GenericName, k.generic()}}
	skipped := map[string]int{}
	for _, im := range labImpls(k.name) {
		if f := missingFeature(im.Features); f != "" {
			skipped[f]++
			continue
		}
		out = append(out, implementation{im.Name, im.Fn})
	}
	for f, n := range skipped {
		t.Logf("%s: skipping %d variants: host lacks %s", k.name, n, f)
	}
	return out
}

func missingFeature(fs []string) string {
	for _, f := range fs {
		if !cpu.Has(f) {
			return f
		}
	}
	return ""
}

// firstDiff returns the index of the first differing byte, or -1.
func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	fill(rng, b)
	return b
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x7e57)) }
