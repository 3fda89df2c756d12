package aesecb

import (
	"bytes"
	"encoding/binary"
	"testing"
)

// FIPS 197 Appendix C: plaintext 00112233..ff under keys 000102...
var appendixC = []struct {
	key, ct string
}{
	{"000102030405060708090a0b0c0d0e0f", "69c4e0d86a7b0430d8cdb78070b4c55a"},
	{"000102030405060708090a0b0c0d0e0f1011121314151617", "dda97ca4864cdfe06eaf70a0ec0d7191"},
	{"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "8ea2b7ca516745bfeafc49904b496089"},
}

const appendixCPlain = "00112233445566778899aabbccddeeff"

// TestAppendixC checks every implementation of every kernel, encrypting
// and decrypting 37 copies of the vector block (main loop and tails).
func TestAppendixC(t *testing.T) {
	for _, v := range appendixC {
		key := unhex(t, v.key)
		pt := bytes.Repeat(unhex(t, appendixCPlain), 37)
		ct := bytes.Repeat(unhex(t, v.ct), 37)
		for _, dec := range []bool{false, true} {
			k := kernelFor(len(key)*8, dec)
			in, want := pt, ct
			if dec {
				in, want = ct, pt
			}
			rk := k.schedule(key)
			for _, im := range implementations(t, k) {
				got := make([]byte, len(in))
				im.fn(rk, got, in)
				if i := firstDiff(got, want); i >= 0 {
					t.Errorf("%s %s: Appendix C vector differs at byte %d: got %x, want %x",
						k.name, im.name, i, got[i&^15:i&^15+16], want[i&^15:i&^15+16])
				}
			}
		}
	}
}

// FIPS 197 Appendix A: selected words w[i] of the expanded keys.
var appendixA = []struct {
	key   string
	words map[int]uint32
}{
	{"2b7e151628aed2a6abf7158809cf4f3c", map[int]uint32{
		4: 0xa0fafe17, 5: 0x88542cb1, 6: 0x23a33939, 7: 0x2a6c7605, 43: 0xb6630ca6}},
	{"8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b", map[int]uint32{
		6: 0xfe0c91f7, 7: 0x2402f5a5, 51: 0x01002202}},
	{"603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4", map[int]uint32{
		8: 0x9ba35411, 9: 0x8e6925af, 12: 0xa8b09c1a, 59: 0x706c631e}},
}

// keyExpanders are the key expansions the host can run.
func keyExpanders() map[string]func([]byte, *[240]byte, *[240]byte) {
	m := map[string]func([]byte, *[240]byte, *[240]byte){"go": expandKeyGeneric}
	addAsmKeyExpanders(m)
	return m
}

func TestAppendixA(t *testing.T) {
	for _, v := range appendixA {
		key := unhex(t, v.key)
		for name, expand := range keyExpanders() {
			var enc, dec [240]byte
			expand(key, &enc, &dec)
			for i, want := range v.words {
				if got := binary.BigEndian.Uint32(enc[4*i:]); got != want {
					t.Errorf("keyexp=%s, %d-bit key: w[%d] = %08x, want %08x", name, len(key)*8, i, got, want)
				}
			}
		}
	}
}

// TestKeyExpansionsAgree compares the AESKEYGENASSIST expansion and
// decryption schedule with the generic one on random keys.
func TestKeyExpansionsAgree(t *testing.T) {
	rng := newRand(1)
	for trial := 0; trial < 300; trial++ {
		key := randBytes(rng, []int{16, 24, 32}[trial%3])
		var wantEnc, wantDec [240]byte
		expandKeyGeneric(key, &wantEnc, &wantDec)
		for name, expand := range keyExpanders() {
			var enc, dec [240]byte
			expand(key, &enc, &dec)
			for _, c := range []struct {
				which     string
				got, want []byte
			}{{"enc", enc[:], wantEnc[:]}, {"dec", dec[:], wantDec[:]}} {
				if i := firstDiff(c.got, c.want); i >= 0 {
					t.Fatalf("keyexp=%s, key %x: %s schedule byte %d = %#x, want %#x", name, key, c.which, i, c.got[i], c.want[i])
				}
			}
		}
	}
}
