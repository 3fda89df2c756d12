package sha3

import (
	"encoding/binary"
	"math/bits"
)

// SHAKE is an instance of a SHAKE or cSHAKE extendable-output function.
// The zero value is a usable SHAKE256.
type SHAKE struct {
	s sponge
	// init is the state Reset returns to: zero for SHAKE, the state after
	// absorbing the customization prefix for cSHAKE.
	init [25]uint64
}

// NewSHAKE128 returns a new SHAKE128 XOF (168-byte rate).
func NewSHAKE128() *SHAKE { return &SHAKE{s: sponge{rate: rate128X, dsbyte: dsSHAKE}} }

// NewSHAKE256 returns a new SHAKE256 XOF (136-byte rate).
func NewSHAKE256() *SHAKE { return &SHAKE{s: sponge{rate: rate256X, dsbyte: dsSHAKE}} }

// NewCSHAKE128 returns a new cSHAKE128 XOF (SP 800-185) with function name
// N and customization string S. With N and S both empty it is SHAKE128.
func NewCSHAKE128(N, S []byte) *SHAKE { return newCSHAKE(rate128X, N, S) }

// NewCSHAKE256 returns a new cSHAKE256 XOF (SP 800-185) with function name
// N and customization string S. With N and S both empty it is SHAKE256.
func NewCSHAKE256(N, S []byte) *SHAKE { return newCSHAKE(rate256X, N, S) }

// newCSHAKE absorbs bytepad(encode_string(N) || encode_string(S), rate)
// (SP 800-185 section 3.3) and keeps the resulting state for Reset.
func newCSHAKE(rate int, N, S []byte) *SHAKE {
	h := &SHAKE{s: sponge{rate: rate, dsbyte: dsSHAKE}}
	if len(N) == 0 && len(S) == 0 {
		return h
	}
	h.s.dsbyte = dsCSHAKE
	var enc [9]byte
	h.s.write(leftEncode(&enc, uint64(rate)))
	h.s.write(leftEncode(&enc, 8*uint64(len(N))))
	h.s.write(N)
	h.s.write(leftEncode(&enc, 8*uint64(len(S))))
	h.s.write(S)
	if h.s.n > 0 {
		var zeros [maxRate]byte
		h.s.write(zeros[:h.s.rate-h.s.n])
	}
	h.init = h.s.a
	return h
}

// leftEncode writes left_encode(x) (SP 800-185 section 2.3.1: the byte
// length of x, then x big-endian in as few bytes as possible, at least
// one) into enc and returns it.
func leftEncode(enc *[9]byte, x uint64) []byte {
	n := max(1, (bits.Len64(x)+7)/8)
	binary.BigEndian.PutUint64(enc[1:], x)
	enc[8-n] = byte(n)
	return enc[8-n:]
}

// setup fixes the zero value as SHAKE256.
func (h *SHAKE) setup() {
	if h.s.rate == 0 {
		h.s.rate, h.s.dsbyte = rate256X, dsSHAKE
	}
}

// Write absorbs more data into the XOF's state. It never returns an
// error. It panics if any output has been read, as crypto/sha3 does.
func (h *SHAKE) Write(p []byte) (int, error) {
	h.setup()
	h.s.write(p)
	return len(p), nil
}

// Read squeezes len(p) more bytes of output into p. It never returns an
// error. After Read, Write panics.
func (h *SHAKE) Read(p []byte) (int, error) {
	h.setup()
	h.s.read(p)
	return len(p), nil
}

// Reset resets the XOF to its initial state (for cSHAKE, with its function
// name and customization string absorbed).
func (h *SHAKE) Reset() {
	h.setup()
	h.s.reset(&h.init)
}

// BlockSize returns the XOF's rate in bytes.
func (h *SHAKE) BlockSize() int {
	h.setup()
	return h.s.rate
}

// SumSHAKE128 returns length bytes of SHAKE128 output for data. It panics
// if length is negative, as crypto/sha3 does.
func SumSHAKE128(data []byte, length int) []byte { return sumSHAKE(data, length, rate128X) }

// SumSHAKE256 returns length bytes of SHAKE256 output for data. It panics
// if length is negative, as crypto/sha3 does.
func SumSHAKE256(data []byte, length int) []byte { return sumSHAKE(data, length, rate256X) }

func sumSHAKE(data []byte, length, rate int) []byte {
	if length < 0 {
		panic("sha3: negative SHAKE output length")
	}
	out := make([]byte, length)
	if length > 0 {
		sumOneShot(out, data, rate, dsSHAKE)
	}
	return out
}
