package mlkem

import "github.com/tunelab/tunelab/kernels/internal/polypack"

// Encodings and compression of FIPS 203, 4.2.1: the dispatched kernels of
// kernels/internal/polypack (mlkem.encode12, mlkem.decode12,
// mlkem.compress, mlkem.decompress), branch-free in the coefficient
// values.

// encode12 writes ByteEncode_12(f) (384 bytes) to dst, for f in [0, q).
func encode12(dst []byte, f *poly) { polypack.Encode12((*[384]byte)(dst[:384]), f) }

// decode12 sets f to ByteDecode_12(src) (384 bytes) and reports whether
// every coefficient is below q (the modulus check of FIPS 203, 7.2).
func decode12(f *poly, src []byte) bool { return polypack.Decode12(f, (*[384]byte)(src[:384])) }

// compressEncode writes ByteEncode_d(Compress_d(f)) (32·d bytes) to dst,
// for f in [0, q) and d in {4, 5, 10, 11}.
func compressEncode(dst []byte, f *poly, d uint) { polypack.Compress(dst, f, int(d)) }

// decodeDecompress sets f to Decompress_d(ByteDecode_d(src)) for the 32·d
// bytes of src and d in {4, 5, 10, 11}: f is in [0, q).
func decodeDecompress(f *poly, src []byte, d uint) { polypack.Decompress(f, src, int(d)) }

// encodeMessage writes ByteEncode_1(Compress_1(w)) to m, for w in [0, q).
func encodeMessage(m *[msgSize]byte, w *poly) { polypack.Compress(m[:], w, 1) }

// decodeMessage sets f to Decompress_1(ByteDecode_1(m)): each bit of m
// becomes 0 or ⌈q/2⌋.
func decodeMessage(f *poly, m *[msgSize]byte) { polypack.Decompress(f, m[:], 1) }
