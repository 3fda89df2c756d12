// Package mlkemtest provides derandomized ML-KEM encapsulation on the
// encapsulation keys of kernels/mlkem, as crypto/mlkem/mlkemtest does for
// crypto/mlkem: for known-answer and differential tests only, never for
// keys in use (the randomness must be secret and fresh).
package mlkemtest

import (
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/internal/derand"
)

// Encapsulate512 encapsulates to ek with the 32 bytes random in place of
// random ones (ML-KEM.Encaps_internal, FIPS 203 Algorithm 17), returning
// the shared key and the ciphertext. It returns an error if random is not
// 32 bytes.
func Encapsulate512(ek *mlkem.EncapsulationKey512, random []byte) (sharedKey, ciphertext []byte, err error) {
	return derand.Encapsulate512(ek.Bytes(), random)
}

// Encapsulate768 is Encapsulate512 for ML-KEM-768.
func Encapsulate768(ek *mlkem.EncapsulationKey768, random []byte) (sharedKey, ciphertext []byte, err error) {
	return derand.Encapsulate768(ek.Bytes(), random)
}

// Encapsulate1024 is Encapsulate512 for ML-KEM-1024.
func Encapsulate1024(ek *mlkem.EncapsulationKey1024, random []byte) (sharedKey, ciphertext []byte, err error) {
	return derand.Encapsulate1024(ek.Bytes(), random)
}
