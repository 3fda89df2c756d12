package mlkem

import "github.com/tunelab/tunelab/kernels/sha3"

// Every hash function ML-KEM calls (FIPS 203, 4.1) is behind this file:
// H (SHA3-256), G (SHA3-512), J and PRF (SHAKE256) and the XOF of
// SampleNTT (SHAKE128). The multi-stream calls take ins[i] as the input of
// their own instance and fill outs[i] with its output.
//
// Every call goes to kernels/sha3, on the dispatched Keccak kernels: the
// matrix and noise streams through its many-stream functions, which hash
// them NR at a time as dispatch chooses.

// xof is one SHAKE128 stream, read on where xofMany stopped.
type xof = sha3.SHAKE

// A hasher holds the SHAKE instances one operation reuses.
type hasher struct{ shake128, shake256 *sha3.SHAKE }

func newHasher() hasher { return hasher{sha3.NewSHAKE128(), sha3.NewSHAKE256()} }

// hashH returns H(b) = SHA3-256(b).
func hashH(b []byte) [32]byte { return sha3.Sum256(b) }

// hashG returns G(b) = SHA3-512(b).
func hashG(b []byte) [64]byte { return sha3.Sum512(b) }

// j writes J(z || c) = SHAKE256(z || c, 32) to out.
func (h *hasher) j(out *[SharedKeySize]byte, z, c []byte) {
	h.shake256.Reset()
	h.shake256.Write(z)
	h.shake256.Write(c)
	h.shake256.Read(out[:])
}

// xofMany fills outs[i] with SHAKE128(ins[i]).
func (h *hasher) xofMany(outs, ins [][]byte) { sha3.SHAKE128Many(outs, ins) }

// prfMany fills outs[i] with SHAKE256(ins[i]) (PRF_η of 4.1: the seed
// and the byte N are concatenated in ins[i]; len(outs[i]) is 64·η).
func (h *hasher) prfMany(outs, ins [][]byte) { sha3.SHAKE256Many(outs, ins) }

// xofStream returns a SHAKE128 instance that has absorbed in and output
// nothing yet.
func (h *hasher) xofStream(in []byte) *xof {
	h.shake128.Reset()
	h.shake128.Write(in)
	return h.shake128
}

// wipe resets the instances, so that no state derived from a secret
// remains in them.
func (h *hasher) wipe() {
	h.shake128.Reset()
	h.shake256.Reset()
}
