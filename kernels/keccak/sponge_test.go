package keccak

import (
	"bytes"
	"crypto/sha3"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"math/rand/v2"
	"testing"
)

// sponge is a minimal FIPS 202 sponge over permute: rate in bytes, domain
// separation suffix (0x06 for SHA-3, 0x1f for SHAKE), output length.
func sponge(permute func(*[25]uint64), msg []byte, rate int, suffix byte, outLen int) []byte {
	var a [25]uint64
	buf := make([]byte, rate)
	absorb := func(block []byte) {
		for i := 0; i < rate/8; i++ {
			a[i] ^= binary.LittleEndian.Uint64(block[8*i:])
		}
		permute(&a)
	}
	for len(msg) >= rate {
		absorb(msg[:rate])
		msg = msg[rate:]
	}
	clear(buf)
	copy(buf, msg)
	buf[len(msg)] ^= suffix
	buf[rate-1] ^= 0x80
	absorb(buf)
	var out []byte
	for {
		for i := 0; i < rate/8; i++ {
			out = binary.LittleEndian.AppendUint64(out, a[i])
		}
		if len(out) >= outLen {
			return out[:outLen]
		}
		permute(&a)
	}
}

type spongeCase struct {
	name   string
	rate   int
	suffix byte
	outLen int
	ref    func(msg []byte) []byte
}

func sumHash(h hash.Hash, msg []byte) []byte { h.Write(msg); return h.Sum(nil) }

var spongeCases = []spongeCase{
	{"SHA3-224", 144, 0x06, 28, func(m []byte) []byte { return sumHash(sha3.New224(), m) }},
	{"SHA3-256", 136, 0x06, 32, func(m []byte) []byte { return sumHash(sha3.New256(), m) }},
	{"SHA3-384", 104, 0x06, 48, func(m []byte) []byte { return sumHash(sha3.New384(), m) }},
	{"SHA3-512", 72, 0x06, 64, func(m []byte) []byte { return sumHash(sha3.New512(), m) }},
	{"SHAKE128", 168, 0x1f, 400, func(m []byte) []byte { return sha3.SumSHAKE128(m, 400) }},
	{"SHAKE256", 136, 0x1f, 300, func(m []byte) []byte { return sha3.SumSHAKE256(m, 300) }},
}

// TestSpongeVsStdlib builds SHA-3 and SHAKE on Permute (and on every
// runnable keccak.x1 variant) and compares them with crypto/sha3 for random
// messages of every length 0..1000.
func TestSpongeVsStdlib(t *testing.T) {
	perms := map[string]func(*[25]uint64){"Permute (" + selectedOf(1) + ")": Permute}
	for _, m := range runnable(t, 1) {
		if !m.OffsetSweep {
			perms[m.Name] = m.Fn.(func(*[25]uint64))
		}
	}
	r := rand.New(rand.NewPCG(3, 202))
	msg := make([]byte, 1001)
	for i := range msg {
		msg[i] = byte(r.Uint32())
	}
	for _, c := range spongeCases {
		for n := 0; n <= 1000; n++ {
			want := c.ref(msg[:n])
			for name, p := range perms {
				if got := sponge(p, msg[:n], c.rate, c.suffix, c.outLen); !bytes.Equal(got, want) {
					t.Fatalf("%s on %s of %d-byte message: got %x, want %x", c.name, name, n, got, want)
				}
			}
		}
	}
}

// TestFIPS202Examples checks published digests of "" and "abc" (NIST FIPS
// 202 example values).
func TestFIPS202Examples(t *testing.T) {
	examples := []struct {
		name, msg, want string
	}{
		{"SHA3-224", "", "6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7"},
		{"SHA3-256", "", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"},
		{"SHA3-384", "", "0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004"},
		{"SHA3-512", "", "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"},
		{"SHA3-256", "abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
		{"SHAKE128", "", "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26"},
		{"SHAKE256", "", "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762fd75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"},
	}
	for _, e := range examples {
		want, _ := hex.DecodeString(e.want)
		c := findCase(e.name)
		got := sponge(Permute, []byte(e.msg), c.rate, c.suffix, len(want))
		if !bytes.Equal(got, want) {
			t.Errorf("%s(%q) = %x, want %s", e.name, e.msg, got, e.want)
		}
	}
}

func findCase(name string) spongeCase {
	for _, c := range spongeCases {
		if c.name == name {
			return c
		}
	}
	panic(fmt.Sprintf("no sponge case %s", name))
}
