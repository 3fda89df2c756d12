package aesecb

import (
	"crypto/cipher"
	"errors"
	"fmt"
)

// blockSize is the AES block size in bytes.
const blockSize = 16

// NewEncrypter returns a BlockMode that encrypts in ECB mode with AES; key
// must have 16, 24 or 32 bytes (AES-128, AES-192, AES-256).
func NewEncrypter(key []byte) (cipher.BlockMode, error) {
	return newMode(key, false)
}

// NewDecrypter returns a BlockMode that decrypts in ECB mode with AES; key
// must have 16, 24 or 32 bytes.
func NewDecrypter(key []byte) (cipher.BlockMode, error) {
	return newMode(key, true)
}

// Pad returns a copy of b padded with PKCS#7 (RFC 5652 §6.3) to a multiple
// of blockSize: n bytes of value n, 1 <= n <= 16.
func Pad(b []byte) []byte {
	n := blockSize - len(b)%blockSize
	out := make([]byte, len(b)+n)
	copy(out, b)
	for i := len(b); i < len(out); i++ {
		out[i] = byte(n)
	}
	return out
}

// errPadding is returned by Unpad when the padding bytes are invalid.
var errPadding = errors.New("aesecb: invalid PKCS#7 padding")

// Unpad removes PKCS#7 padding from b and returns the prefix of b that it
// covered. It rejects an empty input, a length that is not a multiple of
// blockSize, and padding bytes that are not n copies of n with
// 1 <= n <= 16; the padding bytes are checked in constant time.
func Unpad(b []byte) ([]byte, error) {
	if len(b) == 0 || len(b)%blockSize != 0 {
		return nil, fmt.Errorf("aesecb: unpad: length %d is not a positive multiple of %d", len(b), blockSize)
	}
	n := int(b[len(b)-1])
	bad := isZero(n) | greater(n, blockSize)
	for i := 1; i <= blockSize; i++ {
		// Byte len-i belongs to the padding when i <= n.
		inPad := 1 ^ greater(i, n)
		bad |= inPad & (1 ^ isZero(int(b[len(b)-i])^n))
	}
	if bad != 0 {
		return nil, errPadding
	}
	return b[:len(b)-n], nil
}

// isZero returns 1 if x == 0, else 0, for 0 <= x < 2^31, without branches.
func isZero(x int) int { return int((uint64(x) - 1) >> 63) }

// greater returns 1 if x > y, else 0, for 0 <= x, y < 2^31, without branches.
func greater(x, y int) int { return int((uint64(y) - uint64(x)) >> 63) }
