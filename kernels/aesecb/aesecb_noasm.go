//go:build !amd64 || purego

package aesecb

// asmVariants is empty without assembly: only the generic code runs.
var asmVariants []asmVariant

// expandKey fills the encryption and decryption schedules for key.
func expandKey(key []byte, enc, dec *[240]byte) { expandKeyGeneric(key, enc, dec) }
