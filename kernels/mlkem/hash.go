package mlkem

import "github.com/tunelab/tunelab/kernels/sha3"

// Every hash function ML-KEM calls (FIPS 203, 4.1) goes to kernels/sha3:
// H (SHA3-256) and G (SHA3-512) one-shot, and the streams of an operation
// that do not depend on each other, J and PRF (SHAKE256) and the XOF of
// SampleNTT (SHAKE128), together in one sha3.Batch, whose lanes run them
// on the dispatched many-state Keccak kernels (the encapsulation key's
// hash beside the matrix streams, J beside the noise streams); key
// generation absorbs the prefix of its encapsulation key into H in a
// batch too (addH), beside the streams of Â's last row.

// hashG returns G(b) = SHA3-512(b).
func hashG(b []byte) [64]byte { return sha3.Sum512(b) }

// hashH returns H(b) = SHA3-256(b).
func hashH(b []byte) [32]byte { return sha3.Sum256(b) }

// addH adds to b the absorption of the whole blocks of prefix into h, an
// H = SHA3-256 hash not written to yet, and returns how many bytes of
// prefix that is; once b has run, finishH completes the hash.
func addH(b *sha3.Batch, h *sha3.SHA3, prefix []byte) int { return max(0, b.Absorb(h, prefix)) }

// finishH writes to out H(m) of the message m whose bytes before rest h
// has absorbed (addH).
func finishH(out *[32]byte, h *sha3.SHA3, rest []byte) {
	h.Write(rest)
	h.Sum(out[:0])
}

// addJ adds J(z || c) = SHAKE256(z || c, 32) into out to b.
func addJ(b *sha3.Batch, out *[SharedKeySize]byte, z, c []byte) { b.SHAKE256(out[:], z, c) }
