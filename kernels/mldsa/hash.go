package mldsa

import "github.com/tunelab/tunelab/kernels/sha3"

// Every SHAKE call of the whole operations goes through this file, so that
// the hash implementation is chosen in one place: kernels/sha3, on the
// dispatched Keccak kernels of kernels/keccak, whose many-stream functions
// hash the matrix, secret and mask streams NR at a time.

// shake is one SHAKE128 or SHAKE256 instance (Write, then Read).
type shake = sha3.SHAKE

// newSHAKE256 returns a fresh SHAKE256 (H in FIPS 204).
func newSHAKE256() *shake { return sha3.NewSHAKE256() }

// addH adds to b the absorption of the whole blocks of prefix into h, an
// H = SHAKE256 not written to yet, and returns how many bytes of prefix
// that is; once b has run, h takes the rest of the message.
func addH(b *sha3.Batch, h *shake, prefix []byte) int { return max(0, b.AbsorbSHAKE(h, prefix)) }
