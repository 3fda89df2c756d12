//go:build !purego

package aesecb

import (
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

//go:generate go run ../../variants/aesecb -out aesecb_amd64.s -stubs zstubs_amd64.go -pkg aesecb -table zvariants_amd64.go -prod zprod_amd64.go -lab ../../lab/variants/aesecb -ct ../../lab/ct/zstatic_aesecb.go

// keyExpander is the key expansion in use: AESKEYGENASSIST and AESIMC
// where the host has AES-NI (after TUNELAB_CPU masks), else generic Go.
var keyExpander = pickKeyExpander()

func pickKeyExpander() func(key []byte, enc, dec *[240]byte) {
	if cpu.Has("aes") {
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

// prodImpls returns the implementations of kernel that the compiled
// dispatch table can select (zprod_amd64.go): all production links.
func prodImpls(kernel string) []variant.Impl[cryptFunc] {
	switch kernel {
	case "aes128.enc":
		return prodImplsAES128Enc
	case "aes128.dec":
		return prodImplsAES128Dec
	case "aes192.enc":
		return prodImplsAES192Enc
	case "aes192.dec":
		return prodImplsAES192Dec
	case "aes256.enc":
		return prodImplsAES256Enc
	case "aes256.dec":
		return prodImplsAES256Dec
	}
	panic("aesecb: no implementation table for " + kernel)
}

// labImpls returns every generated implementation of kernel
// (zvariants_amd64.go). Only RegisterVariants and the tests call it, so
// only the lab links every variant.
func labImpls(kernel string) []variant.Impl[cryptFunc] {
	switch kernel {
	case "aes128.enc":
		return implsAES128Enc()
	case "aes128.dec":
		return implsAES128Dec()
	case "aes192.enc":
		return implsAES192Enc()
	case "aes192.dec":
		return implsAES192Dec()
	case "aes256.enc":
		return implsAES256Enc()
	case "aes256.dec":
		return implsAES256Dec()
	}
	panic("aesecb: no implementation table for " + kernel)
}
