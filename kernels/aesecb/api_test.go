package aesecb

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestAPIRoundTrip checks NewEncrypter and NewDecrypter (with the variant
// dispatch chose) against crypto/aes for all key sizes and several lengths.
func TestAPIRoundTrip(t *testing.T) {
	rng := newRand(4)
	for _, kl := range []int{16, 24, 32} {
		for _, n := range []int{0, 16, 48, 64, 256, 1040, 16384, 65536 + 48} {
			key, pt := randBytes(rng, kl), randBytes(rng, n)
			enc, err := NewEncrypter(key)
			if err != nil {
				t.Fatal(err)
			}
			dec, err := NewDecrypter(key)
			if err != nil {
				t.Fatal(err)
			}
			if enc.BlockSize() != 16 || dec.BlockSize() != 16 {
				t.Fatalf("BlockSize = %d, %d, want 16", enc.BlockSize(), dec.BlockSize())
			}
			ct := make([]byte, n)
			enc.CryptBlocks(ct, pt)
			if i := firstDiff(ct, stdCrypt(t, key, false, pt)); i >= 0 {
				t.Errorf("AES-%d encrypt %d bytes: byte %d differs from crypto/aes", kl*8, n, i)
			}
			dec.CryptBlocks(ct, ct)
			if i := firstDiff(ct, pt); i >= 0 {
				t.Errorf("AES-%d decrypt in place %d bytes: byte %d differs from the plaintext", kl*8, n, i)
			}
		}
	}
}

func TestBadKeyLength(t *testing.T) {
	for _, n := range []int{0, 1, 15, 17, 23, 31, 33, 64} {
		for name, f := range map[string]func([]byte) (any, error){
			"NewEncrypter": func(k []byte) (any, error) { return NewEncrypter(k) },
			"NewDecrypter": func(k []byte) (any, error) { return NewDecrypter(k) },
		} {
			_, err := f(make([]byte, n))
			if err == nil || !strings.Contains(err.Error(), fmt.Sprint(n)) {
				t.Errorf("%s with a %d-byte key: error %v, want one naming the length %d", name, n, err, n)
			}
		}
	}
}

// mustPanic runs f and fails unless it panics with a message containing want.
func mustPanic(t *testing.T, what, want string, f func()) {
	t.Helper()
	defer func() {
		r := recover()
		if r == nil || !strings.Contains(fmt.Sprint(r), want) {
			t.Errorf("%s: panic %v, want one containing %q", what, r, want)
		}
	}()
	f()
}

func TestCryptBlocksPanics(t *testing.T) {
	key := make([]byte, 16)
	for _, mk := range []func([]byte) (any, error){
		func(k []byte) (any, error) { return NewEncrypter(k) },
		func(k []byte) (any, error) { return NewDecrypter(k) },
	} {
		m, _ := mk(key)
		bm := m.(interface{ CryptBlocks(dst, src []byte) })
		buf := make([]byte, 64)
		mustPanic(t, "src of 17 bytes", "not full blocks", func() { bm.CryptBlocks(buf, buf[:17]) })
		mustPanic(t, "src of 15 bytes", "not full blocks", func() { bm.CryptBlocks(buf, buf[:15]) })
		mustPanic(t, "dst shorter than src", "output smaller", func() { bm.CryptBlocks(buf[:16], make([]byte, 32)) })
		mustPanic(t, "inexact overlap", "overlap", func() { bm.CryptBlocks(buf[16:], buf[:48]) })
	}
}

func TestPadUnpadRoundTrip(t *testing.T) {
	rng := newRand(5)
	for n := 0; n <= 80; n++ {
		msg := randBytes(rng, n)
		p := Pad(msg)
		if len(p)%16 != 0 || len(p) <= n || len(p) > n+16 {
			t.Fatalf("Pad(%d bytes) has length %d", n, len(p))
		}
		got, err := Unpad(p)
		if err != nil || !bytes.Equal(got, msg) {
			t.Fatalf("Unpad(Pad(%d bytes)) = %x, %v, want %x", n, got, err, msg)
		}
	}
	if msg := []byte("x"); &Pad(msg)[0] == &msg[0] {
		t.Error("Pad returned its input's storage, want a copy")
	}
}

func TestUnpadRejects(t *testing.T) {
	block := func(last ...byte) []byte {
		b := bytes.Repeat([]byte{0x41}, 16)
		copy(b[16-len(last):], last)
		return b
	}
	cases := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"length 15", make([]byte, 15)},
		{"length 17", append(block(1), 1)},
		{"pad byte 0", block(0)},
		{"pad byte 17", block(17)},
		{"pad byte 255", block(255)},
		{"inconsistent 2", block(1, 2)},
		{"inconsistent 4", block(4, 4, 3, 4)},
		{"inconsistent middle of 16", func() []byte { b := bytes.Repeat([]byte{16}, 16); b[7] = 17; return b }()},
		{"inconsistent first of 16", append([]byte{15}, bytes.Repeat([]byte{16}, 15)...)},
		{"valid block then bad pad", append(block(1), block(0)...)},
	}
	for _, c := range cases {
		if got, err := Unpad(c.in); err == nil {
			t.Errorf("Unpad(%s: %x) = %x, nil; want an error", c.name, c.in, got)
		}
	}
	if _, err := Unpad(block(3, 3, 3)); err != nil {
		t.Errorf("Unpad of valid 3-byte padding: %v", err)
	}
	if _, err := Unpad(bytes.Repeat([]byte{16}, 32)); err != nil {
		t.Errorf("Unpad of a full padding block: %v", err)
	}
	if _, err := Unpad(block(0)); !errors.Is(err, errPadding) {
		t.Errorf("Unpad(pad byte 0) = %v, want errPadding", err)
	}
}
