// Package derand connects kernels/mlkem/mlkemtest to the derandomized
// encapsulation of kernels/mlkem (ML-KEM.Encaps_internal, FIPS 203
// Algorithm 17), which the public API of kernels/mlkem does not offer.
package derand

// An Encapsulator parses the encoded encapsulation key ek and
// encapsulates to it with the 32 bytes m in place of random ones,
// returning the shared key and the ciphertext. It returns an error if ek
// is not a valid key of its parameter set or m is not 32 bytes.
type Encapsulator func(ek, m []byte) (sharedKey, ciphertext []byte, err error)

// The encapsulators of ML-KEM-512, ML-KEM-768 and ML-KEM-1024; package
// kernels/mlkem sets them at init.
var Encapsulate512, Encapsulate768, Encapsulate1024 Encapsulator
