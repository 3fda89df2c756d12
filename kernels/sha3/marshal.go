package sha3

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// The binary encoding of a SHA3 or SHAKE state (MarshalBinary,
// AppendBinary, UnmarshalBinary), all integers one byte unless noted:
//
//	magic    "tlsha3" (6 bytes)
//	version  1
//	rate     the function's rate in bytes
//	dsbyte   0x06 SHA-3, 0x1f SHAKE, 0x04 cSHAKE
//	phase    0 absorbing, 1 squeezing
//	n        absorbing: bytes buffered; squeezing: bytes of the current
//	         output block already read
//	state    25 lanes, 8 bytes each, little-endian (200 bytes)
//	init     cSHAKE only: the state after the customization prefix,
//	         which Reset returns to (200 bytes)
//	buffer   absorbing only: the n buffered bytes
//
// A squeezing state's unread output is its state's first rate bytes, so
// it is not stored. The format is tunelab's own, not crypto/sha3's.
const (
	magic         = "tlsha3"
	formatVersion = 1
	headerSize    = len(magic) + 5
	stateSize     = 25 * 8
)

// MarshalBinary encodes the hash's state. It never returns an error.
func (h *SHA3) MarshalBinary() ([]byte, error) {
	return h.AppendBinary(make([]byte, 0, headerSize+stateSize+maxRate))
}

// AppendBinary appends the encoding of the hash's state to b. It never
// returns an error.
func (h *SHA3) AppendBinary(b []byte) ([]byte, error) {
	h.setup()
	return h.s.appendBinary(b, nil), nil
}

// UnmarshalBinary restores a state encoded by MarshalBinary. The encoding
// must be of the same function as h (New256's state into a SHA3-256 hash);
// a malformed encoding or another function's is an error and leaves h
// unchanged.
func (h *SHA3) UnmarshalBinary(b []byte) error {
	h.setup()
	return h.s.unmarshal(b, nil)
}

// MarshalBinary encodes the XOF's state. It never returns an error.
func (h *SHAKE) MarshalBinary() ([]byte, error) {
	return h.AppendBinary(make([]byte, 0, headerSize+2*stateSize+maxRate))
}

// AppendBinary appends the encoding of the XOF's state to b. It never
// returns an error.
func (h *SHAKE) AppendBinary(b []byte) ([]byte, error) {
	h.setup()
	return h.s.appendBinary(b, &h.init), nil
}

// UnmarshalBinary restores a state encoded by MarshalBinary. The encoding
// must be of the same function as h: SHAKE128 into SHAKE128, cSHAKE256 into
// cSHAKE256 (whose function name and customization string, as absorbed
// into the encoded initial state, replace h's). A malformed encoding or
// another function's is an error and leaves h unchanged.
func (h *SHAKE) UnmarshalBinary(b []byte) error {
	h.setup()
	return h.s.unmarshal(b, &h.init)
}

// appendBinary appends the encoding of s, with cSHAKE's initial state
// init (nil for SHA-3).
func (s *sponge) appendBinary(b []byte, init *[25]uint64) []byte {
	phase := byte(0)
	if s.squeezing {
		phase = 1
	}
	b = append(b, magic...)
	b = append(b, formatVersion, byte(s.rate), s.dsbyte, phase, byte(s.n))
	b = appendState(b, &s.a)
	if s.dsbyte == dsCSHAKE {
		b = appendState(b, init)
	}
	if !s.squeezing {
		b = append(b, s.buf[:s.n]...)
	}
	return b
}

func appendState(b []byte, a *[25]uint64) []byte {
	for _, lane := range a {
		b = binary.LittleEndian.AppendUint64(b, lane)
	}
	return b
}

// unmarshal decodes b into s (and cSHAKE's initial state into init) if it
// is a well-formed encoding of a state of s's function.
func (s *sponge) unmarshal(b []byte, init *[25]uint64) error {
	squeezing, n, err := s.checkEncoding(b)
	if err != nil {
		return fmt.Errorf("sha3: unmarshaling %s state: %w", funcName(s.rate, s.dsbyte), err)
	}
	body := b[headerSize:]
	decodeState(&s.a, body)
	if s.dsbyte == dsCSHAKE {
		decodeState(init, body[stateSize:])
	}
	s.squeezing, s.n = squeezing, n
	clear(s.buf[:])
	if !squeezing {
		copy(s.buf[:], b[len(b)-n:])
	}
	return nil
}

// checkEncoding validates the header and length of an encoding of a state
// of s's function and returns its phase and position.
func (s *sponge) checkEncoding(b []byte) (squeezing bool, n int, err error) {
	if len(b) < headerSize {
		return false, 0, fmt.Errorf("%d bytes, shorter than the %d-byte header", len(b), headerSize)
	}
	if string(b[:len(magic)]) != magic {
		return false, 0, errors.New("not a tunelab sha3 state (bad magic)")
	}
	h := b[len(magic):headerSize]
	version, rate, ds, phase := h[0], int(h[1]), h[2], h[3]
	n = int(h[4])
	switch {
	case version != formatVersion:
		return false, 0, fmt.Errorf("unsupported format version %d", version)
	case rate != s.rate || ds != s.dsbyte:
		return false, 0, fmt.Errorf("encoding is of %s", funcName(rate, ds))
	case phase > 1 || phase == 1 && ds == dsSHA3:
		return false, 0, fmt.Errorf("invalid phase %d", phase)
	case phase == 0 && n >= rate || n > rate:
		return false, 0, fmt.Errorf("position %d out of range for rate %d", n, rate)
	}
	squeezing = phase == 1
	want := headerSize + stateSize
	if ds == dsCSHAKE {
		want += stateSize
	}
	if !squeezing {
		want += n
	}
	if len(b) != want {
		return false, 0, fmt.Errorf("%d bytes, want %d", len(b), want)
	}
	return squeezing, n, nil
}

func decodeState(a *[25]uint64, b []byte) {
	for i := range a {
		a[i] = binary.LittleEndian.Uint64(b[8*i:])
	}
}

// funcName names the function of a rate and domain-separation byte. The
// capacity, 200 − rate bytes, is twice the digest size of SHA3-d and
// twice the security level of SHAKEd and cSHAKEd, in bits: d = (200 −
// rate)·4.
func funcName(rate int, ds byte) string {
	d := (200 - rate) * 4
	isSHA3 := rate == rate224 || rate == rate256 || rate == rate384 || rate == rate512
	isSHAKE := rate == rate128X || rate == rate256X
	switch {
	case ds == dsSHA3 && isSHA3:
		return fmt.Sprintf("SHA3-%d", d)
	case ds == dsSHAKE && isSHAKE:
		return fmt.Sprintf("SHAKE%d", d)
	case ds == dsCSHAKE && isSHAKE:
		return fmt.Sprintf("cSHAKE%d", d)
	}
	return fmt.Sprintf("an unknown function (rate %d, dsbyte %#02x)", rate, ds)
}
