package mldsa

import (
	"encoding/binary"

	"github.com/tunelab/tunelab/kernels/internal/polypack"
	"github.com/tunelab/tunelab/kernels/internal/polysample"
)

// Bit packing of FIPS 204, Section 7.1: coefficient i of a polynomial
// occupies bits [i·b, (i+1)·b) of the output, least significant bit first.
// SimpleBitPack(w, b) stores w_i; BitPack(w, a, b) stores b - w_i. Here a
// packing of "base - sgn·w" covers both: (0, -1) is SimpleBitPack and
// (b, 1) is BitPack. No branch or index depends on a coefficient.

// packPoly writes the 256 values base - sgn·w_i, each in bits bits
// (bits <= 24), to dst[:32·bits].
func packPoly(dst []byte, w *poly, bits uint, base, sgn int32) {
	mask := uint64(1)<<bits - 1
	dst = dst[:n*bits/8]
	var acc uint64
	var used uint
	for _, c := range w {
		acc |= (uint64(uint32(base-sgn*c)) & mask) << used
		used += bits
		if used >= 32 {
			binary.LittleEndian.PutUint32(dst, uint32(acc))
			dst = dst[4:]
			acc >>= 32
			used -= 32
		}
	}
}

// unpackPoly sets w_i = base - sgn·v_i for the 256 values v_i of bits
// bits (bits <= 24) packed in src[:32·bits], reading 8 bytes at a time.
// A src with 8 bytes past the packed polynomial (the rest of a signature,
// a padded buffer) is read in place, a shorter one from a padded copy.
func unpackPoly(w *poly, src []byte, bits uint, base, sgn int32) {
	size := n * bits / 8
	if uint(len(src)) < size+8 {
		var padded [n*24/8 + 8]byte
		copy(padded[:], src[:size])
		src = padded[:]
	}
	mask := uint64(1)<<bits - 1
	for i := range w {
		off := uint(i) * bits
		v := int32(binary.LittleEndian.Uint64(src[off/8:]) >> (off % 8) & mask)
		w[i] = base - sgn*v
	}
}

// packEta is BitPack(s, η, η) of a centered polynomial with coefficients
// in [-η, η]: the dispatched kernel mldsa.pack
// (kernels/internal/polypack), as are packT0, packT1 and unpackT1.
func (p *params) packEta(dst []byte, s *poly) { polypack.Pack(dst, s, int(p.etaBits), p.eta, 1) }

// unpackEta is BitUnpack(v, η, η) (FIPS 204 Algorithm 19) into a
// centered polynomial: the inverse of packEta on its outputs.
func (p *params) unpackEta(s *poly, src []byte) { polypack.Unpack(s, src, int(p.etaBits), p.eta, 1) }

// packT0 is BitPack(t0, 2^(d-1)-1, 2^(d-1)) of a centered t0.
func packT0(dst []byte, t0 *poly) { polypack.Pack(dst, t0, t0Bits, 1<<(d-1), 1) }

// unpackT0 is BitUnpack(v, 2^(d-1)-1, 2^(d-1)) into a centered t0.
func unpackT0(t0 *poly, src []byte) { polypack.Unpack(t0, src, t0Bits, 1<<(d-1), 1) }

// packT1 is SimpleBitPack(t1, 2^10-1).
func packT1(dst []byte, t1 *poly) { polypack.Pack(dst, t1, t1Bits, 0, -1) }

// unpackT1 is SimpleBitUnpack(v, 2^10-1); every input is valid.
func unpackT1(t1 *poly, src []byte) { polypack.Unpack(t1, src, t1Bits, 0, -1) }

// packZ is BitPack(z, γ1-1, γ1) of a centered z in (-γ1, γ1].
func (p *params) packZ(dst []byte, z *poly) { packPoly(dst, z, p.zBits(), p.gamma1(), 1) }

// unpackZ is BitUnpack(v, γ1-1, γ1) of src[:p.zBytes()] into z, centered
// (every value decodes into (-γ1, γ1]; the caller checks the norm bound),
// and into zHat, canonical: the dispatched kernel mldsa.expandmask
// (kernels/internal/polysample).
func (p *params) unpackZ(z, zHat *poly, src []byte) {
	polysample.ExpandMask(z, zHat, src, int(p.zBits()))
}

// packW1 writes w1Encode of the row HighBits(w) (FIPS 204 Algorithm 28)
// for canonical w: SimpleBitPack with 4 bits (γ2 = (Q-1)/32, the kernel
// mldsa.w1pack4) or 6 bits (γ2 = (Q-1)/88).
func (p *params) packW1(dst []byte, w *poly) {
	if p.gamma2 == (Q-1)/32 {
		c := newRoundConsts(rounding32, 0)
		w1Pack4(dst[:n/2], w, &c)
		return
	}
	packW1x6(dst, w)
}

// packW1x6 packs HighBits for γ2 = (Q-1)/88, four per three bytes.
func packW1x6(dst []byte, w *poly) {
	dst = dst[:3*n/4]
	for i := 0; i < n/4; i++ {
		a, _ := decompose88(w[4*i])
		b, _ := decompose88(w[4*i+1])
		c, _ := decompose88(w[4*i+2])
		e, _ := decompose88(w[4*i+3])
		v := a | b<<6 | c<<12 | e<<18
		dst[3*i], dst[3*i+1], dst[3*i+2] = byte(v), byte(v>>8), byte(v>>16)
	}
}

// packHints is HintBitPack (FIPS 204 Algorithm 20) of the hint rows h
// (one byte 0 or 1 per coefficient) into dst[:ω+k], which must be zero.
// Signing calls it once the signature is accepted: h is then public.
func (p *params) packHints(dst []byte, h *[maxK][n]uint8) {
	idx := 0
	for i := range p.k {
		for j, b := range &h[i] {
			if b != 0 {
				dst[idx] = byte(j)
				idx++
			}
		}
		dst[p.omega+i] = byte(idx)
	}
}

// hintRows checks the encoded hints y (ω+k bytes, HintBitUnpack, FIPS 204
// Algorithm 21) and returns, for each row i, the end of its positions in
// y: row i's strictly increasing positions are y[end[i-1]:end[i]]
// (end[-1] = 0). It reports false for a malformed encoding: a decreasing
// end, an end above ω, positions not strictly increasing, or a nonzero
// byte after the last position.
func (p *params) hintRows(y []byte) (end [maxK]int, ok bool) {
	start := 0
	for i := range p.k {
		e := int(y[p.omega+i])
		if e < start || e > p.omega {
			return end, false
		}
		for j := start + 1; j < e; j++ {
			if y[j-1] >= y[j] {
				return end, false
			}
		}
		end[i], start = e, e
	}
	for _, b := range y[start:p.omega] {
		if b != 0 {
			return end, false
		}
	}
	return end, true
}
