package polysample

import (
	"fmt"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Verification of the samplers: boundary buffers (empty, one candidate,
// all rejected, all accepted, candidates at the bound, lengths that are
// no multiple of a group or of three, more than a polynomial needs) and
// starting counts (0, near full, full), then pseudo-random ones. A
// variant agrees with the generic code if it returns the same count and
// the same coefficients below it, and leaves those below the starting
// count alone.

// An input is a buffer and a starting count.
type input struct {
	buf []byte
	j   int
}

// edges are the boundary inputs, by the kind of candidates: each gets a
// fill function making a candidate of value v (kind-specific encoding).
var edges = []func(r *polyvec.Rand, cand func(v uint32) []byte, bound uint32) input{
	func(*polyvec.Rand, func(uint32) []byte, uint32) input { return input{nil, 0} },
	func(_ *polyvec.Rand, c func(uint32) []byte, b uint32) input { return input{c(b - 1), 255} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 168), 0} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 168), 250} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 504), 0} },
	func(*polyvec.Rand, func(uint32) []byte, uint32) input { return input{repeat(0xff, 168), 0} },
	func(*polyvec.Rand, func(uint32) []byte, uint32) input { return input{repeat(0x00, 168), 100} },
	func(_ *polyvec.Rand, c func(uint32) []byte, b uint32) input {
		var buf []byte
		for i := range 120 {
			buf = append(buf, c(b-1+uint32(i%3))...) // q−1, q, q+1
		}
		return input{buf, 3}
	},
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 170), 0} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 47), 0} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 1000), 0} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 168), 256} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 136), 241} },
	func(r *polyvec.Rand, _ func(uint32) []byte, _ uint32) input { return input{randBytes(r, 96), 225} },
}

// inputOf returns input i of seed: boundary input i, or a buffer of
// random length (0 to 700 bytes) with a random starting count (0 half of
// the time, near full a quarter of it).
func inputOf(i int, seed uint64, cand func(v uint32) []byte, bound uint32) (input, string) {
	r := polyvec.NewRand(seed ^ uint64(i)*0x9e3779b97f4a7c15)
	if i < len(edges) {
		return edges[i](r, cand, bound), fmt.Sprintf("boundary input %d", i)
	}
	in := input{buf: randBytes(r, int(r.Uint64()%701))}
	switch r.Uint64() % 4 {
	case 1:
		in.j = int(r.Uint64() % 257)
	case 2:
		in.j = 256 - int(r.Uint64()%40)
	}
	return in, fmt.Sprintf("random input %d (seed %#x)", i, seed)
}

func randBytes(r *polyvec.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint64())
	}
	return b
}

func repeat(b byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = b
	}
	return out
}

// cand12 encodes the 12-bit candidate v twice (d1 = d2 = v) in three
// bytes.
func cand12(v uint32) []byte { return []byte{byte(v), byte(v>>8&0xf | v<<4), byte(v >> 4)} }

// cand23 encodes the 23-bit candidate v, the ignored top bit set for odd
// v.
func cand23(v uint32) []byte { return []byte{byte(v), byte(v >> 8), byte(v>>16) | byte(v&1)<<7} }

// candEta encodes the nibble v in both halves of a byte.
func candEta(v uint32) []byte { return []byte{byte(v&15 | v<<4)} }

// compare runs got and want on copies of a polynomial prefilled with a
// pattern and returns the first difference (count, then coefficients
// below it) as a *variant.Mismatch.
func compare[E int16 | int32](kernel, name, what string, j int, got, want func(p *[256]E) int) error {
	var pg, pw [256]E
	for i := range pg {
		pg[i] = E(i*7 + 1)
	}
	pw = pg
	jg, jw := got(&pg), want(&pw)
	if jg != jw {
		return &variant.Mismatch{Kernel: kernel, Variant: name, Input: what, Index: -1,
			Got: fmt.Sprintf("count %d", jg), Want: fmt.Sprintf("count %d", jw)}
	}
	return kernelset.Diff(kernel, name, fmt.Sprintf("%s (from j = %d)", what, j), pg[:jw], pw[:jw])
}

func check12(kernel, name string, fn, ref rej12Fn, i int, seed uint64) error {
	in, what := inputOf(i, seed, cand12, q12)
	return compare(kernel, name, what, in.j,
		func(p *[256]int16) int { return fn(p, in.j, in.buf) },
		func(p *[256]int16) int { return ref(p, in.j, in.buf) })
}

func check23(kernel, name string, fn, ref rej23Fn, i int, seed uint64) error {
	in, what := inputOf(i, seed, cand23, q23)
	return compare(kernel, name, what, in.j,
		func(p *[256]int32) int { return fn(p, in.j, in.buf) },
		func(p *[256]int32) int { return ref(p, in.j, in.buf) })
}

func checkEta(kernel, name string, fn, ref rejEtaFn, i int, seed uint64) error {
	for _, eta := range []int32{2, 4} {
		in, what := inputOf(i, seed, candEta, uint32(newHalfByte(eta).limit))
		if err := compare(kernel, name, fmt.Sprintf("%s, η = %d", what, eta), in.j,
			func(p *[256]int32) int { return fn(p, in.j, in.buf, eta) },
			func(p *[256]int32) int { return ref(p, in.j, in.buf, eta) }); err != nil {
			return err
		}
	}
	return nil
}

// The harness's inputs: one SHAKE block of pseudo-random bytes, sampled
// from j = 0 on every run.

func prepare12(fn rej12Fn, seed uint64) func(int) {
	var f [256]int16
	buf := randBytes(polyvec.NewRand(seed), 168)
	return func(k int) {
		for range k {
			fn(&f, 0, buf)
		}
	}
}

func prepare23(fn rej23Fn, seed uint64) func(int) {
	var a [256]int32
	buf := randBytes(polyvec.NewRand(seed), 168)
	return func(k int) {
		for range k {
			fn(&a, 0, buf)
		}
	}
}

func prepareEta(fn rejEtaFn, seed uint64) func(int) {
	var a [256]int32
	buf := randBytes(polyvec.NewRand(seed), 136)
	return func(k int) {
		for range k {
			fn(&a, 0, buf, 4)
		}
	}
}
