package poly1305

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"golang.org/x/crypto/poly1305"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// An impl is an implementation's record: Fn nil for the generic code.
type impl = variant.Impl[*asmVariant]

// impls returns every registered implementation, the generic code first.
func impls() []impl { return append([]impl{{Name: variant.GenericName}}, slot.Known()...) }

// runnable returns the implementations the host can execute, logging the
// skipped ones with the missing features.
func runnable(t testing.TB) []impl {
	var out []impl
	for _, im := range impls() {
		if !cpu.Has(im.Features...) {
			t.Logf("skipping %s: host lacks one of %v", im.Name, im.Features)
			continue
		}
		out = append(out, im)
	}
	return out
}

func randKey(rng *rand.Rand) *[32]byte {
	var k [32]byte
	fill(rng, k[:])
	return &k
}

// checkAgainstXCrypto compares im's tag with x/crypto's on (m, key).
func checkAgainstXCrypto(t testing.TB, im impl, m []byte, key *[32]byte, input string) {
	t.Helper()
	var got, want [16]byte
	sum(im.Fn, &got, m, key)
	poly1305.Sum(&want, m, key)
	if got != want {
		t.Fatalf("%s: %s (%d bytes, key %x): tag %x, want %x (x/crypto)", im.Name, input, len(m), key, got, want)
	}
}

// TestDifferentialAllLengths compares every implementation with x/crypto
// for every length 0..4096 with three fresh random keys per length, each
// on random bytes starting at a different (also unaligned) offset of one
// buffer: 12,291 random inputs per implementation. Offset-sweep variants
// share their base's code and get one input at every 7th length.
func TestDifferentialAllLengths(t *testing.T) {
	maxLen := 4096
	if testing.Short() {
		maxLen = 1100
	}
	rng := rand.New(rand.NewPCG(1, 2))
	buf := make([]byte, maxLen+64)
	fill(rng, buf)
	for _, im := range runnable(t) {
		step, reps := 1, 3
		if im.OffsetSweep {
			step, reps = 7, 1
		}
		for n := 0; n <= maxLen; n += step {
			for i := 0; i < reps; i++ {
				m := buf[i*13%64:][:n]
				checkAgainstXCrypto(t, im, m, randKey(rng), "random")
			}
		}
	}
}

// TestEdgeCases covers keys with r = 0 or s = 0 or all bits set, and
// all-ones message blocks (maximal carries), at lengths around every
// iteration size.
func TestEdgeCases(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	ones := bytes.Repeat([]byte{0xff}, 2048+64)
	for _, im := range runnable(t) {
		for _, c := range edgeCases(rng) {
			for _, n := range []int{0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257, 511, 512, 1024, 2048 + 48} {
				m := make([]byte, n)
				c.fillMsg(rng, m)
				checkAgainstXCrypto(t, im, m, &c.key, c.name)
				checkAgainstXCrypto(t, im, ones[:n], &c.key, c.name+", all-ones message")
			}
		}
	}
}

// TestVerifyFunctions runs each variant's registered Verify and an
// instance's Run/Check, as the harness does.
func TestVerifyFunctions(t *testing.T) {
	for _, im := range runnable(t) {
		v := variant.Lookup(kernel, im.Name)
		if v == nil {
			t.Fatalf("%s not registered", im.Name)
		}
		for _, size := range []int{0, 16, 100, 1024} {
			if err := v.Verify(size, uint64(size)+7); err != nil {
				t.Errorf("Verify(%d): %v", size, err)
			}
		}
		in := v.New(333, 9)
		in.Run(2)
		if err := in.Check(); err != nil {
			t.Errorf("%s: Check: %v", im.Name, err)
		}
	}
}

// TestStreamingSwitchesVariants writes messages in random pieces, each
// write's blocks going to a randomly chosen implementation, so the shared
// state format is exercised across every pair of variants.
func TestStreamingSwitchesVariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ims := runnable(t)
	for trial := 0; trial < 300; trial++ {
		n := rng.IntN(3000)
		m := make([]byte, n)
		fill(rng, m)
		key := randKey(rng)
		mac := New(key)
		var used []string
		mac.pick = func(int) *asmVariant {
			im := ims[rng.IntN(len(ims))]
			used = append(used, im.Name)
			return im.Fn
		}
		for rest := m; len(rest) > 0; {
			k := min(len(rest), rng.IntN(600))
			if rng.IntN(4) == 0 {
				k = min(len(rest), rng.IntN(20))
			}
			mac.Write(rest[:k])
			rest = rest[k:]
		}
		var want [16]byte
		poly1305.Sum(&want, m, key)
		if got := mac.Sum(nil); !bytes.Equal(got, want[:]) {
			t.Fatalf("trial %d (%d bytes, implementations %v): tag %x, want %x", trial, n, used, got, want)
		}
	}
}

// TestPublicStreaming checks New/Write/Sum/Verify with dispatch.
func TestPublicStreaming(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 200; trial++ {
		m := make([]byte, rng.IntN(5000))
		fill(rng, m)
		key := randKey(rng)
		mac := New(key)
		for rest := m; len(rest) > 0; {
			k := min(len(rest), 1+rng.IntN(1200))
			mac.Write(rest[:k])
			rest = rest[k:]
		}
		var want [16]byte
		poly1305.Sum(&want, m, key)
		if !mac.Verify(want[:]) {
			t.Fatalf("trial %d (%d bytes): MAC.Verify rejected x/crypto's tag", trial, len(m))
		}
		var got [16]byte
		Sum(&got, m, key)
		if got != want {
			t.Fatalf("trial %d (%d bytes): Sum %x, want %x", trial, len(m), got, want)
		}
		bad := want
		bad[trial%16] ^= 1
		if Verify(&bad, m, key) {
			t.Fatalf("trial %d: Verify accepted a tag with byte %d flipped", trial, trial%16)
		}
	}
}

// TestPowerTablesRecomputed recomputes the key powers the vector variants
// use with math/big and compares them limb by limb.
func TestPowerTablesRecomputed(t *testing.T) {
	testPowerTables(t)
}

// FuzzVariants compares every runnable implementation with x/crypto.
func FuzzVariants(f *testing.F) {
	f.Add(make([]byte, 32), []byte("Cryptographic Forum Research Group"))
	f.Add(bytes.Repeat([]byte{0xff}, 32), bytes.Repeat([]byte{0xff}, 300))
	f.Fuzz(func(t *testing.T, key, m []byte) {
		if len(key) < 32 {
			return
		}
		k := (*[32]byte)(key[:32])
		for _, im := range runnable(t) {
			checkAgainstXCrypto(t, im, m, k, "fuzz input")
		}
	})
}

func ExampleSum() {
	var key [32]byte
	copy(key[:], unhex("85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b"))
	var tag [TagSize]byte
	Sum(&tag, []byte("Cryptographic Forum Research Group"), &key)
	fmt.Printf("%x\n", tag)
	// Output: a8061dc1305136c6c22b8baf0c0127a9
}
