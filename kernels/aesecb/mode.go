package aesecb

import (
	"fmt"
	"unsafe"
)

// A schedule holds the expanded keys: nr+1 round keys of 16 bytes each in
// FIPS 197 byte order, for encryption and for the equivalent inverse
// cipher.
type schedule struct {
	nr       int
	enc, dec [240]byte
}

// newSchedule expands key (16, 24 or 32 bytes) with expandKey.
func newSchedule(key []byte) (*schedule, error) {
	switch len(key) {
	case 16, 24, 32:
	default:
		return nil, fmt.Errorf("aesecb: invalid key length %d bytes (want 16, 24 or 32)", len(key))
	}
	s := &schedule{nr: len(key)/4 + 6}
	expandKey(key, &s.enc, &s.dec)
	return s, nil
}

// ecb is the BlockMode: a schedule and the dispatched kernel for its key
// size and direction.
type ecb struct {
	rk *[240]byte
	k  *kernel
	s  *schedule
}

// newMode expands key and binds the dispatched kernel of its size and
// direction.
func newMode(key []byte, dec bool) (*ecb, error) {
	s, err := newSchedule(key)
	if err != nil {
		return nil, err
	}
	k := kernelFor(len(key)*8, dec)
	rk := &s.enc
	if dec {
		rk = &s.dec
	}
	return &ecb{rk: rk, k: k, s: s}, nil
}

// BlockSize returns the AES block size, 16 bytes.
func (e *ecb) BlockSize() int { return blockSize }

// CryptBlocks crypts src into dst with the variant dispatch chose for
// len(src). It panics, as crypto/cipher modes do, when len(src) is not a
// multiple of the block size, dst is shorter than src, or they overlap
// other than exactly.
func (e *ecb) CryptBlocks(dst, src []byte) {
	if len(src)%blockSize != 0 {
		panic("aesecb: input not full blocks")
	}
	if len(dst) < len(src) {
		panic("aesecb: output smaller than input")
	}
	dst = dst[:len(src)]
	if inexactOverlap(dst, src) {
		panic("aesecb: invalid buffer overlap")
	}
	if len(src) == 0 {
		return
	}
	e.k.slot.For(len(src))(e.rk, dst, src)
}

// inexactOverlap reports whether x and y share memory at different
// offsets (both non-empty).
func inexactOverlap(x, y []byte) bool {
	if len(x) == 0 || len(y) == 0 || &x[0] == &y[0] {
		return false
	}
	xs, ys := uintptr(unsafe.Pointer(&x[0])), uintptr(unsafe.Pointer(&y[0]))
	return xs < ys+uintptr(len(y)) && ys < xs+uintptr(len(x))
}
