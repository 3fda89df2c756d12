package sha3

import "hash"

// SHA3 is an instance of a SHA-3 hash function. It implements hash.Hash.
// The zero value is a usable SHA3-256 hash.
type SHA3 struct {
	s sponge
}

// New224 returns a new SHA3-224 hash (28-byte digest, 144-byte rate).
func New224() *SHA3 { return newSHA3(rate224) }

// New256 returns a new SHA3-256 hash (32-byte digest, 136-byte rate).
func New256() *SHA3 { return newSHA3(rate256) }

// New384 returns a new SHA3-384 hash (48-byte digest, 104-byte rate).
func New384() *SHA3 { return newSHA3(rate384) }

// New512 returns a new SHA3-512 hash (64-byte digest, 72-byte rate).
func New512() *SHA3 { return newSHA3(rate512) }

func newSHA3(rate int) *SHA3 {
	return &SHA3{s: sponge{rate: rate, dsbyte: dsSHA3}}
}

// setup makes the zero value SHA3-256.
func (h *SHA3) setup() {
	if h.s.rate == 0 {
		h.s.rate, h.s.dsbyte = rate256, dsSHA3
	}
}

// Write absorbs more data into the hash's state. It never returns an
// error.
func (h *SHA3) Write(p []byte) (int, error) {
	h.setup()
	h.s.write(p)
	return len(p), nil
}

// Sum appends the digest of the data written so far to b and returns the
// resulting slice. It does not change the hash's state.
func (h *SHA3) Sum(b []byte) []byte {
	h.setup()
	var d [64]byte
	s := h.s
	out := d[:h.Size()]
	s.read(out)
	return append(b, out...)
}

// Reset resets the hash to its initial state.
func (h *SHA3) Reset() {
	h.setup()
	h.s.reset(&[25]uint64{})
}

// Size returns the number of bytes Sum appends: 28, 32, 48 or 64.
func (h *SHA3) Size() int {
	h.setup()
	return (200 - h.s.rate) / 2
}

// BlockSize returns the hash's rate in bytes.
func (h *SHA3) BlockSize() int {
	h.setup()
	return h.s.rate
}

// Clone returns an independent copy of the hash in its current state. It
// implements hash.Cloner and never returns an error.
func (h *SHA3) Clone() (hash.Cloner, error) {
	h.setup()
	c := *h
	return &c, nil
}

// Sum224 returns the SHA3-224 digest of data.
func Sum224(data []byte) (out [28]byte) {
	sumOneShot(out[:], data, rate224, dsSHA3)
	return out
}

// Sum256 returns the SHA3-256 digest of data.
func Sum256(data []byte) (out [32]byte) {
	sumOneShot(out[:], data, rate256, dsSHA3)
	return out
}

// Sum384 returns the SHA3-384 digest of data.
func Sum384(data []byte) (out [48]byte) {
	sumOneShot(out[:], data, rate384, dsSHA3)
	return out
}

// Sum512 returns the SHA3-512 digest of data.
func Sum512(data []byte) (out [64]byte) {
	sumOneShot(out[:], data, rate512, dsSHA3)
	return out
}
