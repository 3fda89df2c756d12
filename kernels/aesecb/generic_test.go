package aesecb

import (
	"testing"
)

// mulSlow multiplies in GF(2^8) mod x^8+x^4+x^3+x+1 bit by bit, an
// implementation independent of the SWAR code under test.
func mulSlow(a, b byte) byte {
	var p byte
	for b != 0 {
		if b&1 != 0 {
			p ^= a
		}
		hi := a & 0x80
		a <<= 1
		if hi != 0 {
			a ^= 0x1b
		}
		b >>= 1
	}
	return p
}

// sboxFromFirstPrinciples recomputes the S-box of FIPS 197 §5.1.1: the
// inverse found by search, then the affine map b'_i = b_i ^ b_(i+4) ^
// b_(i+5) ^ b_(i+6) ^ b_(i+7) ^ c_i with c = 0x63, bit by bit.
func sboxFromFirstPrinciples() [256]byte {
	var s [256]byte
	for x := 0; x < 256; x++ {
		var inv byte
		for y := 1; y < 256 && x != 0; y++ {
			if mulSlow(byte(x), byte(y)) == 1 {
				inv = byte(y)
			}
		}
		var out byte
		for i := 0; i < 8; i++ {
			bit := (inv>>i ^ inv>>((i+4)%8) ^ inv>>((i+5)%8) ^ inv>>((i+6)%8) ^ inv>>((i+7)%8) ^ 0x63>>i) & 1
			out |= bit << i
		}
		s[x] = out
	}
	return s
}

func TestSBox(t *testing.T) {
	want := sboxFromFirstPrinciples()
	// Spot values from FIPS 197 Figure 7.
	for x, v := range map[int]byte{0x00: 0x63, 0x01: 0x7c, 0x53: 0xed, 0xff: 0x16} {
		if want[x] != v {
			t.Fatalf("first-principles S-box(%#02x) = %#02x, want %#02x (FIPS 197 Figure 7)", x, want[x], v)
		}
	}
	for x := 0; x < 256; x++ {
		// Put x in every byte position with different neighbours.
		in := uint64(x)<<(8*(x%8)) | 0x0102030405060708&^(0xff<<(8*(x%8)))
		got := byte(subBytes(in) >> (8 * (x % 8)))
		if got != want[x] {
			t.Errorf("subBytes(%#02x) = %#02x, want %#02x", x, got, want[x])
		}
		if back := byte(invSubBytes(uint64(want[x]))); back != byte(x) {
			t.Errorf("invSubBytes(%#02x) = %#02x, want %#02x", want[x], back, x)
		}
	}
}

// TestGenericRandom compares the generic code with crypto/aes on random
// keys and messages: 10,000 blocks per kernel.
func TestGenericRandom(t *testing.T) {
	rng := newRand(3)
	for _, k := range kernels {
		gen := k.generic()
		for trial := 0; trial < 40; trial++ {
			key, src := randBytes(rng, k.bits/8), randBytes(rng, 250*16)
			want := stdCrypt(t, key, k.dec, src)
			got := make([]byte, len(src))
			gen(k.schedule(key), got, src)
			if i := firstDiff(got, want); i >= 0 {
				t.Fatalf("%s generic, key %x: byte %d = %#x, want %#x", k.name, key, i, got[i], want[i])
			}
		}
	}
}
