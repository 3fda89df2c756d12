//go:build !purego

package aesecb

import "github.com/tunelab/tunelab/kernels/dispatch"

//go:generate go run ../../variants/aes -out aesecb_amd64.s -stubs zstubs_amd64.go -pkg aesecb -table zvariants_amd64.go

// keyExpander is the key expansion in use: AESKEYGENASSIST and AESIMC
// where the host has AES-NI (after TUNELAB_CPU masks), else generic Go.
var keyExpander = pickKeyExpander()

func pickKeyExpander() func(key []byte, enc, dec *[240]byte) {
	if dispatch.Has("aes") {
		return expandKeyAESNI
	}
	return expandKeyGeneric
}

// expandKey fills the encryption and decryption schedules for key.
func expandKey(key []byte, enc, dec *[240]byte) { keyExpander(key, enc, dec) }

// expandKeyAESNI expands a 16-, 24- or 32-byte key with the generated
// AESKEYGENASSIST functions.
func expandKeyAESNI(key []byte, enc, dec *[240]byte) {
	switch len(key) {
	case 16:
		expandKeyAESNI128(&key[0], enc, dec)
	case 24:
		expandKeyAESNI192(&key[0], enc, dec)
	case 32:
		expandKeyAESNI256(&key[0], enc, dec)
	default:
		panic("aesecb: invalid key length")
	}
}
