package sha3

import (
	"bytes"
	"encoding"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMarshalRoundTripAbsorbing marshals every function mid-absorb (with
// 0, 1, rate-1 and rate+1 bytes written and random lengths), restores the
// state into a fresh instance and checks that both continue exactly as
// crypto/sha3 does.
func TestMarshalRoundTripAbsorbing(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, c := range hashCases {
		for _, n := range []int{0, 1, c.rate - 1, c.rate, c.rate + 1, rng.IntN(4 * c.rate)} {
			msg := randomBytes(rng, n+c.rate+3)
			h := c.ours()
			h.Write(msg[:n])
			enc := mustMarshal(t, h)
			restored := c.ours()
			if err := restored.UnmarshalBinary(enc); err != nil {
				t.Fatalf("%s after %d bytes: UnmarshalBinary: %v", c.name, n, err)
			}
			want := c.sumTheir(msg)
			for _, x := range []*SHA3{h, restored} {
				x.Write(msg[n:])
				if got := x.Sum(nil); !bytes.Equal(got, want) {
					t.Errorf("%s marshaled after %d bytes: %x, want %x", c.name, n, got, want)
				}
			}
		}
	}
	for _, c := range xofCases {
		for _, n := range []int{0, 1, c.rate - 1, c.rate, c.rate + 1, rng.IntN(4 * c.rate)} {
			msg := randomBytes(rng, n+7)
			h := c.ours()
			h.Write(msg[:n])
			restored := c.ours()
			if err := restored.UnmarshalBinary(mustMarshal(t, h)); err != nil {
				t.Fatalf("%s after %d bytes: UnmarshalBinary: %v", c.name, n, err)
			}
			want := theirOutput(c, msg, 3*c.rate)
			for _, x := range []*SHAKE{h, restored} {
				x.Write(msg[n:])
				got := make([]byte, len(want))
				x.Read(got)
				if !bytes.Equal(got, want) {
					t.Errorf("%s marshaled after %d bytes: differs at byte %d", c.name, n, firstDiff(got, want))
				}
			}
		}
	}
}

// TestMarshalRoundTripSqueezing marshals every XOF mid-squeeze (0, 1,
// rate-1, rate, rate+1 bytes read) and checks that the restored instance
// reads on as crypto/sha3 does, and that Reset returns it to the
// function's (customized) initial state.
func TestMarshalRoundTripSqueezing(t *testing.T) {
	msg := []byte("squeezing state")
	for _, c := range xofCases {
		want := theirOutput(c, msg, 4*c.rate)
		for _, n := range []int{0, 1, c.rate - 1, c.rate, c.rate + 1, 2 * c.rate} {
			h := c.ours()
			h.Write(msg)
			h.Read(make([]byte, n))
			restored := c.ours()
			if err := restored.UnmarshalBinary(mustMarshal(t, h)); err != nil {
				t.Fatalf("%s after reading %d bytes: UnmarshalBinary: %v", c.name, n, err)
			}
			got := make([]byte, len(want)-n)
			restored.Read(got)
			if !bytes.Equal(got, want[n:]) {
				t.Errorf("%s restored after reading %d bytes: differs at byte %d", c.name, n, n+firstDiff(got, want[n:]))
			}
			if !panics(func() { restored.Write(nil) }) {
				t.Errorf("%s restored mid-squeeze: Write did not panic", c.name)
			}
			restored.Reset()
			restored.Write(msg)
			got = make([]byte, len(want))
			restored.Read(got)
			if !bytes.Equal(got, want) {
				t.Errorf("%s restored, then Reset: differs at byte %d", c.name, firstDiff(got, want))
			}
		}
	}
}

// TestAppendBinary checks that AppendBinary appends MarshalBinary's
// encoding.
func TestAppendBinary(t *testing.T) {
	h := New384()
	h.Write([]byte("append"))
	x := NewCSHAKE128([]byte("N"), []byte("S"))
	x.Write([]byte("append"))
	for _, m := range []interface {
		encoding.BinaryMarshaler
		encoding.BinaryAppender
	}{h, x} {
		enc, _ := m.MarshalBinary()
		got, err := m.AppendBinary([]byte("prefix"))
		if err != nil || !bytes.Equal(got, append([]byte("prefix"), enc...)) {
			t.Errorf("%T: AppendBinary = %x, %v; want prefix || %x", m, got, err, enc)
		}
	}
}

// TestCSHAKEUnmarshalTakesCustomization checks that restoring a cSHAKE
// state into a cSHAKE of other N and S takes the encoded customization.
func TestCSHAKEUnmarshalTakesCustomization(t *testing.T) {
	a := NewCSHAKE256([]byte("A"), []byte("first"))
	b := NewCSHAKE256(nil, []byte("second"))
	if err := b.UnmarshalBinary(mustMarshal(t, a)); err != nil {
		t.Fatal(err)
	}
	b.Reset()
	b.Write([]byte("m"))
	a.Write([]byte("m"))
	ga, gb := make([]byte, 64), make([]byte, 64)
	a.Read(ga)
	b.Read(gb)
	if !bytes.Equal(ga, gb) {
		t.Errorf("cSHAKE256 restored and Reset does not continue as the encoded function")
	}
}

// TestUnmarshalMalformed checks that malformed encodings, and encodings of
// another function, are rejected with an error (never a panic) and leave
// the receiver unchanged.
func TestUnmarshalMalformed(t *testing.T) {
	absorbing := New256()
	absorbing.Write([]byte("five"))
	sha256Enc := mustMarshal(t, absorbing)
	x := NewSHAKE128()
	x.Write(make([]byte, 200))
	shake128Abs := mustMarshal(t, x)
	x.Read(make([]byte, 10))
	shake128Sq := mustMarshal(t, x)
	cs := NewCSHAKE128([]byte("N"), nil)
	cshake128Enc := mustMarshal(t, cs)

	type target interface {
		encoding.BinaryMarshaler
		encoding.BinaryUnmarshaler
	}
	cases := []struct {
		name string
		into func() target
		enc  []byte
	}{
		{"SHA3-256 into SHA3-512", func() target { return New512() }, sha256Enc},
		{"SHA3-256 into SHAKE256", func() target { return NewSHAKE256() }, sha256Enc},
		{"SHAKE128 into SHAKE256", func() target { return NewSHAKE256() }, shake128Abs},
		{"SHAKE128 into cSHAKE128", func() target { return NewCSHAKE128(nil, []byte("S")) }, shake128Sq},
		{"cSHAKE128 into SHAKE128", func() target { return NewSHAKE128() }, cshake128Enc},
		{"SHAKE128 into SHA3-256", func() target { return New256() }, shake128Abs},
		{"empty", func() target { return New256() }, nil},
		{"bad magic", func() target { return New256() }, patch(sha256Enc, 0, 'T')},
		{"version 2", func() target { return New256() }, patch(sha256Enc, 6, 2)},
		{"version 0", func() target { return NewSHAKE128() }, patch(shake128Sq, 6, 0)},
		{"phase 2", func() target { return NewSHAKE128() }, patch(shake128Sq, 9, 2)},
		{"SHA3 squeezing", func() target { return New256() }, patch(sha256Enc, 9, 1)},
		{"absorbing position = rate", func() target { return NewSHAKE128() }, patch(shake128Abs, 10, rate128X)},
		{"squeezing position > rate", func() target { return NewSHAKE128() }, patch(shake128Sq, 10, rate128X+1)},
		{"absorbing encoding marked squeezing", func() target { return NewSHAKE128() }, patch(shake128Abs, 9, 1)},
		{"squeezing encoding marked absorbing", func() target { return NewSHAKE128() }, patch(shake128Sq, 9, 0)},
		{"trailing byte", func() target { return NewSHAKE128() }, append(bytes.Clone(shake128Sq), 0)},
	}
	for _, enc := range [][]byte{sha256Enc, shake128Abs, shake128Sq, cshake128Enc} {
		for i := 0; i < len(enc); i++ {
			cases = append(cases, struct {
				name string
				into func() target
				enc  []byte
			}{"truncated", func() target { return pick(enc) }, enc[:i]})
		}
	}
	for _, c := range cases {
		h := c.into()
		before, _ := h.MarshalBinary()
		var err error
		if panics(func() { err = h.UnmarshalBinary(c.enc) }) {
			t.Errorf("%s (%d bytes): UnmarshalBinary panicked", c.name, len(c.enc))
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), "sha3: unmarshaling ") {
			t.Errorf("%s (%d bytes): UnmarshalBinary error %v, want a \"sha3: unmarshaling ...\" error", c.name, len(c.enc), err)
		}
		if after, _ := h.MarshalBinary(); !bytes.Equal(before, after) {
			t.Errorf("%s: a failed UnmarshalBinary changed the receiver", c.name)
		}
	}
}

// pick returns a fresh instance of the function whose encoding enc is.
func pick(enc []byte) interface {
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
} {
	switch enc[8] {
	case dsSHA3:
		return New256()
	case dsCSHAKE:
		return NewCSHAKE128([]byte("other"), nil)
	}
	return NewSHAKE128()
}

// patch returns a copy of b with byte i set to v.
func patch(b []byte, i int, v byte) []byte {
	b = bytes.Clone(b)
	b[i] = v
	return b
}

func mustMarshal(t *testing.T, m encoding.BinaryMarshaler) []byte {
	t.Helper()
	enc, err := m.MarshalBinary()
	if err != nil {
		t.Fatalf("MarshalBinary: %v", err)
	}
	return enc
}

// theirOutput is n bytes of crypto/sha3's output of c for msg.
func theirOutput(c xofCase, msg []byte, n int) []byte {
	ref := c.theirs()
	ref.Write(msg)
	out := make([]byte, n)
	ref.Read(out)
	return out
}

// TestFuncName checks the names unmarshaling errors give each function,
// and an unknown one.
func TestFuncName(t *testing.T) {
	for _, c := range []struct {
		rate int
		ds   byte
		want string
	}{
		{rate224, dsSHA3, "SHA3-224"}, {rate256, dsSHA3, "SHA3-256"},
		{rate384, dsSHA3, "SHA3-384"}, {rate512, dsSHA3, "SHA3-512"},
		{rate128X, dsSHAKE, "SHAKE128"}, {rate256X, dsSHAKE, "SHAKE256"},
		{rate128X, dsCSHAKE, "cSHAKE128"}, {rate256X, dsCSHAKE, "cSHAKE256"},
		{rate224, dsSHAKE, "an unknown function (rate 144, dsbyte 0x1f)"},
		{100, dsSHA3, "an unknown function (rate 100, dsbyte 0x06)"},
	} {
		if got := funcName(c.rate, c.ds); got != c.want {
			t.Errorf("funcName(%d, %#02x) = %q, want %q", c.rate, c.ds, got, c.want)
		}
	}
}
