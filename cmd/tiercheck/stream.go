package main

import (
	"encoding/binary"
	"hash/fnv"
)

// A stream is a splitmix64 generator (Steele, Lea and Flood 2014). It is
// written out here so that the inputs, and so the digests, never depend on
// a library's choice of algorithm.
type stream struct{ s uint64 }

// newStream returns the stream of one function: seed mixed with the FNV-1a
// hash of its name.
func newStream(seed uint64, name string) *stream {
	h := fnv.New64a()
	h.Write([]byte(name))
	return &stream{s: seed ^ h.Sum64()}
}

// next returns the next 64 bits: z = (s += golden gamma), then two
// xor-shift-multiply rounds and a final xor-shift.
func (r *stream) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// fill overwrites b with stream bytes.
func (r *stream) fill(b []byte) {
	var w [8]byte
	for len(b) > 0 {
		binary.LittleEndian.PutUint64(w[:], r.next())
		b = b[copy(b, w[:]):]
	}
}

// below returns a value in [0, q) for q < 2^32: the high half of a 32x32-bit
// product (multiply-shift; its bias of at most q/2^32 is irrelevant here).
func (r *stream) below(q uint32) uint32 {
	return uint32(uint64(uint32(r.next()>>32)) * uint64(q) >> 32)
}

// units returns how many calls of an input of b bytes cover n bytes: at
// least one.
func units(n, b int) int {
	return max(1, (n+b-1)/b)
}
