package sha3

import (
	"bytes"
	"crypto/sha3"
	"encoding/hex"
	"testing"
)

// fips202Examples are NIST's example values for FIPS 202 (the "Example
// Values" files of the Cryptographic Standards and Guidelines project):
// the digest of the empty message and of the 1600-bit message of 0xa3
// bytes. The SHAKE values are the first 32 bytes of the 4096-bit outputs
// of the examples.
var fips202Examples = []struct {
	name       string
	sum        func([]byte) []byte
	empty, a3s string
}{
	{"SHA3-224", func(m []byte) []byte { d := Sum224(m); return d[:] },
		"6b4e03423667dbb73b6e15454f0eb1abd4597f9a1b078e3f5b5a6bc7",
		"9376816aba503f72f96ce7eb65ac095deee3be4bf9bbc2a1cb7e11e0"},
	{"SHA3-256", func(m []byte) []byte { d := Sum256(m); return d[:] },
		"a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
		"79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"},
	{"SHA3-384", func(m []byte) []byte { d := Sum384(m); return d[:] },
		"0c63a75b845e4f7d01107d852e4c2485c51a50aaaa94fc61995e71bbee983a2ac3713831264adb47fb6bd1e058d5f004",
		"1881de2ca7e41ef95dc4732b8f5f002b189cc1e42b74168ed1732649ce1dbcdd76197a31fd55ee989f2d7050dd473e8f"},
	{"SHA3-512", func(m []byte) []byte { d := Sum512(m); return d[:] },
		"a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a615b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
		"e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca81b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00"},
	{"SHAKE128", func(m []byte) []byte { return SumSHAKE128(m, 32) },
		"7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
		"131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037"},
	{"SHAKE256", func(m []byte) []byte { return SumSHAKE256(m, 32) },
		"46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f",
		"cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"},
}

// TestFIPS202Examples checks the one-shot functions and the streaming
// types (one byte per Write) against NIST's example values.
func TestFIPS202Examples(t *testing.T) {
	a3 := bytes.Repeat([]byte{0xa3}, 200)
	for _, ex := range fips202Examples {
		for _, c := range []struct {
			label string
			msg   []byte
			want  string
		}{{"empty message", nil, ex.empty}, {"1600-bit 0xa3 message", a3, ex.a3s}} {
			if got := hex.EncodeToString(ex.sum(c.msg)); got != c.want {
				t.Errorf("%s of the %s = %s, want %s", ex.name, c.label, got, c.want)
			}
			if got := hex.EncodeToString(streamOneByteAtATime(ex.name, c.msg, len(c.want)/2)); got != c.want {
				t.Errorf("%s of the %s, written one byte at a time = %s, want %s", ex.name, c.label, got, c.want)
			}
		}
	}
}

// streamOneByteAtATime hashes msg with the streaming type of the named
// function, one byte per Write, and returns n bytes of output.
func streamOneByteAtATime(name string, msg []byte, n int) []byte {
	var w interface{ Write([]byte) (int, error) }
	var read func([]byte)
	switch name {
	case "SHAKE128", "SHAKE256":
		h := NewSHAKE128()
		if name == "SHAKE256" {
			h = NewSHAKE256()
		}
		w, read = h, func(p []byte) { h.Read(p) }
	default:
		h := map[string]func() *SHA3{"SHA3-224": New224, "SHA3-256": New256, "SHA3-384": New384, "SHA3-512": New512}[name]()
		w, read = h, func(p []byte) { copy(p, h.Sum(nil)) }
	}
	for i := range msg {
		w.Write(msg[i : i+1])
	}
	out := make([]byte, n)
	read(out)
	return out
}

// TestCSHAKEExamples checks cSHAKE against the samples of NIST SP 800-185
// (cSHAKE samples #1 to #4: N empty, S = "Email Signature", data
// 00010203 or 00..c7), and against crypto/sha3's NewCSHAKE for other
// function names and customization strings, including ones longer than
// the rate.
func TestCSHAKEExamples(t *testing.T) {
	data200 := make([]byte, 200)
	for i := range data200 {
		data200[i] = byte(i)
	}
	email := []byte("Email Signature")
	samples := []struct {
		name string
		h    *SHAKE
		data []byte
		want string
	}{
		{"cSHAKE128 sample #1", NewCSHAKE128(nil, email), []byte{0, 1, 2, 3},
			"c1c36925b6409a04f1b504fcbca9d82b4017277cb5ed2b2065fc1d3814d5aaf5"},
		{"cSHAKE128 sample #2", NewCSHAKE128(nil, email), data200,
			"c5221d50e4f822d96a2e8881a961420f294b7b24fe3d2094baed2c6524cc166b"},
		{"cSHAKE256 sample #3", NewCSHAKE256(nil, email), []byte{0, 1, 2, 3},
			"d008828e2b80ac9d2218ffee1d070c48b8e4c87bff32c9699d5b6896eee0edd164020e2be0560858d9c00c037e34a96937c561a74c412bb4c746469527281c8c"},
		{"cSHAKE256 sample #4", NewCSHAKE256(nil, email), data200,
			"07dc27b11e51fbac75bc7b3c1d983e8b4b85fb1defaf218912ac86430273091727f42b17ed1df63e8ec118f04b23633c1dfb1574c8fb55cb45da8e25afb092bb"},
	}
	for _, s := range samples {
		s.h.Write(s.data)
		got := make([]byte, len(s.want)/2)
		s.h.Read(got)
		if hex.EncodeToString(got) != s.want {
			t.Errorf("%s = %x, want %s", s.name, got, s.want)
		}
	}
	long := bytes.Repeat([]byte("customization "), 30)
	for _, ns := range [][2][]byte{{nil, nil}, {[]byte("KMAC"), nil}, {nil, []byte("S")}, {[]byte("N"), []byte("S")},
		{long, nil}, {nil, long}, {long[:167], long[:1]}, {long[:135], long[:137]}} {
		for _, f := range []struct {
			name     string
			ours     func(N, S []byte) *SHAKE
			theirs   func(N, S []byte) *sha3.SHAKE
			rateSize int
		}{{"cSHAKE128", NewCSHAKE128, sha3.NewCSHAKE128, rate128X}, {"cSHAKE256", NewCSHAKE256, sha3.NewCSHAKE256, rate256X}} {
			got, want := f.ours(ns[0], ns[1]), f.theirs(ns[0], ns[1])
			msg := data200[:f.rateSize-3]
			got.Write(msg)
			want.Write(msg)
			g, w := make([]byte, 3*f.rateSize+1), make([]byte, 3*f.rateSize+1)
			got.Read(g)
			want.Read(w)
			if !bytes.Equal(g, w) {
				t.Errorf("%s(N %d bytes, S %d bytes): output differs from crypto/sha3 at byte %d", f.name, len(ns[0]), len(ns[1]), firstDiff(g, w))
			}
		}
	}
}

// TestLeftEncode checks left_encode against SP 800-185 section 2.3.1's
// definition on the edge values of each encoded length.
func TestLeftEncode(t *testing.T) {
	for _, c := range []struct {
		x    uint64
		want string
	}{{0, "0100"}, {1, "0101"}, {255, "01ff"}, {256, "020100"}, {168, "01a8"}, {1<<64 - 1, "08ffffffffffffffff"}, {1 << 56, "080100000000000000"}} {
		var enc [9]byte
		if got := hex.EncodeToString(leftEncode(&enc, c.x)); got != c.want {
			t.Errorf("left_encode(%d) = %s, want %s", c.x, got, c.want)
		}
	}
}
