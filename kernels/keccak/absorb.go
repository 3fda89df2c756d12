package keccak

import "encoding/binary"

// AbsorbBlocks XORs each full rate-byte block of data into the state a
// (little-endian lanes, lane i at a[i]) and applies Keccak-f[1600] after
// each block: the absorbing loop of the sponge (FIPS 202 Algorithm 8)
// over whole blocks. It returns the number of bytes consumed, the largest
// multiple of rate not above len(data); the caller buffers the rest.
// rate must be a multiple of 8 in [8, 200) (SHA-3 and SHAKE use 72, 104,
// 136, 144 and 168); AbsorbBlocks panics otherwise.
func AbsorbBlocks(a *[25]uint64, data []byte, rate int) int {
	if rate <= 0 || rate >= 200 || rate%8 != 0 {
		panic("keccak: AbsorbBlocks: rate must be a multiple of 8 in [8, 200)")
	}
	return absorbBlocks(a, data, rate)
}

// absorbGeneric is the reference absorbing loop: XOR a block, then permute
// with the dispatched single-state permutation.
func absorbGeneric(a *[25]uint64, data []byte, rate int) int {
	n := 0
	for ; len(data)-n >= rate; n += rate {
		block := data[n : n+rate]
		for i := 0; i < rate/8; i++ {
			a[i] ^= binary.LittleEndian.Uint64(block[8*i:])
		}
		permuteX1(a)
	}
	return n
}

// absorbBlocks is the implementation AbsorbBlocks calls.
var absorbBlocks = absorbGeneric
