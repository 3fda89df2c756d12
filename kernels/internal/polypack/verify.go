package polypack

import (
	"fmt"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
)

// Verification of the packings: boundary inputs (extremes, alternations,
// ramps; for coefficient inputs values at 0, the top of the range and
// around it), then pseudo-random ones, for every width a kernel takes.

// edges are the boundary inputs: each returns value i of an input whose
// values lie in [0, max].
var edges = []func(i int, max uint32) uint32{
	func(int, uint32) uint32 { return 0 },
	func(_ int, m uint32) uint32 { return m },
	func(i int, m uint32) uint32 { return uint32(i&1) * m },
	func(i int, m uint32) uint32 { return uint32(1-i&1) * m },
	func(i int, m uint32) uint32 { return uint32(i*13) % (m + 1) },
	func(i int, m uint32) uint32 { return m - uint32(i*7)%(m+1) },
	func(i int, m uint32) uint32 { return m/2 + uint32(i%5) - 2 },
}

// values returns input i of seed: 256 (or len) values in [0, max].
func values(i int, seed uint64, max uint32, count int) ([]uint32, string) {
	out := make([]uint32, count)
	if i < len(edges) {
		for k := range out {
			out[k] = min(edges[i](k, max), max)
		}
		return out, fmt.Sprintf("boundary input %d", i)
	}
	r := polyvec.NewRand(seed ^ uint64(i)*0x9e3779b97f4a7c15)
	for k := range out {
		out[k] = uint32(r.Uint64() % uint64(max+1))
	}
	return out, fmt.Sprintf("random input %d (seed %#x)", i, seed)
}

func kemPoly(i int, seed uint64) (*[256]int16, string) {
	v, what := values(i, seed, q-1, n)
	var f [256]int16
	for k := range f {
		f[k] = int16(v[k])
	}
	return &f, what
}

func bytesOf(i int, seed uint64, l int) ([]byte, string) {
	v, what := values(i, seed, 255, l)
	b := make([]byte, l)
	for k := range b {
		b[k] = byte(v[k])
	}
	return b, what
}

func checkEncode12(kernel, name string, fn, ref encode12Fn, i int, seed uint64) error {
	f, what := kemPoly(i, seed)
	var got, want [384]byte
	fn(&got, f)
	ref(&want, f)
	return kernelset.Diff(kernel, name, what, got[:], want[:])
}

func checkDecode12(kernel, name string, fn, ref decode12Fn, i int, seed uint64) error {
	for _, top := range []uint32{255, 0} {
		b, what := bytesOf(i, seed, 384)
		if top == 0 { // canonical encodings too, most of them valid
			f, _ := kemPoly(i, seed)
			encode12Generic((*[384]byte)(b), f)
			what += " (encoded)"
		}
		var got, want [256]int16
		okg, okw := fn(&got, (*[384]byte)(b)), ref(&want, (*[384]byte)(b))
		if err := kernelset.Diff(kernel, name, what+", check", []uint32{okg}, []uint32{okw}); err != nil {
			return err
		}
		if err := kernelset.Diff(kernel, name, what, got[:], want[:]); err != nil {
			return err
		}
	}
	return nil
}

func checkCompress(kernel, name string, fn, ref compressFn, i int, seed uint64) error {
	f, what := kemPoly(i, seed)
	for _, d := range kemWidths {
		got, want := make([]byte, 32*d), make([]byte, 32*d)
		fn(got, f, d)
		ref(want, f, d)
		if err := kernelset.Diff(kernel, name, fmt.Sprintf("%s, d = %d", what, d), got, want); err != nil {
			return err
		}
	}
	return nil
}

func checkDecompress(kernel, name string, fn, ref decompressFn, i int, seed uint64) error {
	for _, d := range kemWidths {
		b, what := bytesOf(i, seed, 32*d)
		var got, want [256]int16
		fn(&got, b, d)
		ref(&want, b, d)
		if err := kernelset.Diff(kernel, name, fmt.Sprintf("%s, d = %d", what, d), got[:], want[:]); err != nil {
			return err
		}
	}
	return nil
}

// dsaForms are the (bits, base, sgn) of ML-DSA's packings: η = 2 and 4,
// t1, t0; 3 and 4 bits also as SimpleBitPack.
var dsaForms = []struct {
	bits      int
	base, sgn int32
}{{3, 2, 1}, {4, 4, 1}, {10, 0, -1}, {13, 1 << 12, 1}, {3, 0, -1}, {4, 0, -1}}

func checkPack(kernel, name string, fn, ref packFn, i int, seed uint64) error {
	for _, fm := range dsaForms {
		v, what := values(i, seed, 1<<fm.bits-1, n)
		var w [256]int32
		for k := range w {
			w[k] = fm.sgn * (fm.base - int32(v[k])) // base − sgn·w = v
		}
		got, want := make([]byte, 32*fm.bits), make([]byte, 32*fm.bits)
		fn(got, &w, fm.bits, fm.base, fm.sgn)
		ref(want, &w, fm.bits, fm.base, fm.sgn)
		if err := kernelset.Diff(kernel, name, fmt.Sprintf("%s, %d bits, base %d, sgn %d", what, fm.bits, fm.base, fm.sgn), got, want); err != nil {
			return err
		}
	}
	return nil
}

func checkUnpack(kernel, name string, fn, ref unpackFn, i int, seed uint64) error {
	for _, fm := range dsaForms {
		b, what := bytesOf(i, seed, 32*fm.bits)
		var got, want [256]int32
		fn(&got, b, fm.bits, fm.base, fm.sgn)
		ref(&want, b, fm.bits, fm.base, fm.sgn)
		if err := kernelset.Diff(kernel, name, fmt.Sprintf("%s, %d bits, base %d, sgn %d", what, fm.bits, fm.base, fm.sgn), got[:], want[:]); err != nil {
			return err
		}
	}
	return nil
}

// The harness's inputs: ML-KEM-768's and ML-DSA-65's common widths.

func prepareEncode12(fn encode12Fn, seed uint64) func(int) {
	f, _ := kemPoly(len(edges), seed)
	var dst [384]byte
	return func(k int) {
		for range k {
			fn(&dst, f)
		}
	}
}

func prepareDecode12(fn decode12Fn, seed uint64) func(int) {
	f, _ := kemPoly(len(edges), seed)
	var src [384]byte
	encode12Generic(&src, f)
	return func(k int) {
		for range k {
			fn(f, &src)
		}
	}
}

func prepareCompress(fn compressFn, seed uint64) func(int) {
	f, _ := kemPoly(len(edges), seed)
	dst := make([]byte, 320)
	return func(k int) {
		for range k {
			fn(dst, f, 10)
		}
	}
}

func prepareDecompress(fn decompressFn, seed uint64) func(int) {
	b, _ := bytesOf(len(edges), seed, 320)
	var f [256]int16
	return func(k int) {
		for range k {
			fn(&f, b, 10)
		}
	}
}

func preparePack(fn packFn, seed uint64) func(int) {
	v, _ := values(len(edges), seed, 1<<13-1, n)
	var w [256]int32
	for k := range w {
		w[k] = 1<<12 - int32(v[k])
	}
	dst := make([]byte, 416)
	return func(k int) {
		for range k {
			fn(dst, &w, 13, 1<<12, 1)
		}
	}
}

func prepareUnpack(fn unpackFn, seed uint64) func(int) {
	b, _ := bytesOf(len(edges), seed, 320)
	var w [256]int32
	return func(k int) {
		for range k {
			fn(&w, b, 10, 0, -1)
		}
	}
}
