package mlkem

import "encoding/binary"

// Encodings and compression of FIPS 203, 4.2.1. Every function here is
// branch-free in the coefficient values: the loops depend only on the
// (public) bit width d.

// compressMul is ⌈2^37 / 2q⌉: ⌊x·compressMul / 2^37⌋ = ⌊x / 2q⌋ for every
// x < 2^24 (the error x·(compressMul·2q − 2^37) / (2q·2^37) stays below
// 1/2q there).
const compressMul = (1<<37 + 2*Q - 1) / (2 * Q)

// compress returns Compress_d(x) = ⌈(2^d / q)·x⌋ mod 2^d for x in [0, q)
// and d ≤ 11, as ⌊(2^(d+1)·x + q) / 2q⌋ with the division done by
// multiplication and shift.
func compress(x int16, d uint) uint16 {
	num := uint64(x)<<(d+1) + Q
	return uint16(num*compressMul>>37) & (1<<d - 1)
}

// decompress returns Decompress_d(y) = ⌈(q / 2^d)·y⌋ for y < 2^d, in
// [0, q).
func decompress(y uint16, d uint) int16 {
	return int16((uint32(y)*Q + 1<<(d-1)) >> d)
}

// encode12 writes ByteEncode_12(f) (384 bytes) to dst, for f in [0, q).
func encode12(dst []byte, f *poly) {
	dst = dst[:384]
	for i := 0; i < n; i += 2 {
		a, b := uint16(f[i]), uint16(f[i+1])
		dst[0], dst[1], dst[2] = byte(a), byte(a>>8|b<<4), byte(b>>4)
		dst = dst[3:]
	}
}

// decode12 sets f to ByteDecode_12(src) (384 bytes) and reports whether
// every coefficient is below q (the modulus check of FIPS 203, 7.2).
func decode12(f *poly, src []byte) bool {
	src = src[:384]
	var over uint16
	for i := 0; i < n; i += 2 {
		a := uint16(src[0]) | uint16(src[1]&0xf)<<8
		b := uint16(src[1]>>4) | uint16(src[2])<<4
		f[i], f[i+1] = int16(a), int16(b)
		over |= (Q - 1 - a) | (Q - 1 - b) // the top bit is set iff one is ≥ q
		src = src[3:]
	}
	return over>>15 == 0
}

// compressEncode writes ByteEncode_d(Compress_d(f)) (32·d bytes) to dst,
// for f in [0, q) and d in {4, 5, 10, 11}, with d a constant in each
// inlined copy of packCompressed.
func compressEncode(dst []byte, f *poly, d uint) {
	switch d {
	case 4:
		packCompressed(dst, f, 4)
	case 5:
		packCompressed(dst, f, 5)
	case 10:
		packCompressed(dst, f, 10)
	case 11:
		packCompressed(dst, f, 11)
	default:
		packCompressed(dst, f, d)
	}
}

// packCompressed is compressEncode for any d ≤ 11. The bits are gathered
// in a 64-bit word and written 32 at a time; 256·d is a multiple of 32.
func packCompressed(dst []byte, f *poly, d uint) {
	dst = dst[:32*d]
	var acc uint64
	var bits uint
	for _, c := range f {
		acc |= uint64(compress(c, d)) << (bits & 31) // bits < 32
		bits += d
		if bits >= 32 {
			binary.LittleEndian.PutUint32(dst, uint32(acc))
			dst = dst[4:]
			acc >>= 32
			bits -= 32
		}
	}
}

// decodeDecompress sets f to Decompress_d(ByteDecode_d(src)) for the 32·d
// bytes of src and d in {4, 5, 10, 11}: f is in [0, q).
func decodeDecompress(f *poly, src []byte, d uint) {
	switch d {
	case 4:
		unpackDecompress(f, src, 4)
	case 5:
		unpackDecompress(f, src, 5)
	case 10:
		unpackDecompress(f, src, 10)
	case 11:
		unpackDecompress(f, src, 11)
	default:
		unpackDecompress(f, src, d)
	}
}

// unpackDecompress is decodeDecompress for any d ≤ 11, reading 32 bits
// at a time.
func unpackDecompress(f *poly, src []byte, d uint) {
	src = src[:32*d]
	var acc uint64
	var bits uint
	for i := range f {
		if bits < d {
			acc |= uint64(binary.LittleEndian.Uint32(src)) << (bits & 31) // bits < d
			src = src[4:]
			bits += 32
		}
		f[i] = decompress(uint16(acc)&(1<<d-1), d)
		acc >>= d
		bits -= d
	}
}

// encodeMessage writes ByteEncode_1(Compress_1(w)) to m, for w in [0, q).
func encodeMessage(m *[msgSize]byte, w *poly) {
	for i := range m {
		var b byte
		for j := range 8 {
			b |= byte(compress(w[8*i+j], 1)) << j
		}
		m[i] = b
	}
}

// decodeMessage sets f to Decompress_1(ByteDecode_1(m)): each bit of m
// becomes 0 or ⌈q/2⌋.
func decodeMessage(f *poly, m *[msgSize]byte) {
	for i, b := range m {
		for j := range 8 {
			f[8*i+j] = -int16(b>>j&1) & halfQ
		}
	}
}

// halfQ is ⌈q/2⌋ = Decompress_1(1).
const halfQ = (Q + 1) / 2
