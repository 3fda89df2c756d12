//go:build !amd64 || purego

package aesecb

import "github.com/tunelab/tunelab/kernels/variant"

// prodImpls is empty without assembly: only the generic code runs.
func prodImpls(string) []variant.Impl[cryptFunc] { return nil }

// labImpls is empty without assembly.
func labImpls(string) []variant.Impl[cryptFunc] { return nil }

// expandKey fills the encryption and decryption schedules for key.
func expandKey(key []byte, enc, dec *[240]byte) { expandKeyGeneric(key, enc, dec) }
