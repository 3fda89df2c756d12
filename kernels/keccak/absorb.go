package keccak

import "encoding/binary"

// AbsorbBlocks XORs each full rate-byte block of data into the state a
// (little-endian lanes, lane i at a[i]) and applies Keccak-f[1600] after
// each block: the absorbing loop of the sponge (FIPS 202 Algorithm 8)
// over whole blocks. It returns the number of bytes consumed, the largest
// multiple of rate not above len(data); the caller buffers the rest.
// rate must be a multiple of 8 in [8, 200) (SHA-3 and SHAKE use 72, 104,
// 136, 144 and 168); AbsorbBlocks panics otherwise.
//
// AbsorbBlocks runs the implementation the plan of kernel sha3.256
// selects for len(data) bytes: a fused absorb variant (state loaded once,
// every block XORed and permuted in assembly, stored once), or, where
// the dispatch table has no sha3.256 entry, the fused copy of the
// variant Permute dispatches to.
func AbsorbBlocks(a *[25]uint64, data []byte, rate int) int {
	if rate <= 0 || rate >= 200 || rate%8 != 0 {
		panic("keccak: AbsorbBlocks: rate must be a multiple of 8 in [8, 200)")
	}
	n := len(data) - len(data)%rate
	if n > 0 {
		sha3Slot.For(len(data))(a, data[:n], rate)
	}
	return n
}

// absorbGo is the absorbing loop in Go: XOR a block, then permute.
func absorbGo(a *[25]uint64, data []byte, rate int, permute func(*[25]uint64)) {
	for ; len(data) >= rate; data = data[rate:] {
		for i := 0; i < rate/8; i++ {
			a[i] ^= binary.LittleEndian.Uint64(data[8*i:])
		}
		permute(a)
	}
}

// absorbGeneric is the reference, the generic variant of sha3.256: the
// Go loop over the generic permutation.
func absorbGeneric(a *[25]uint64, data []byte, rate int) { absorbGo(a, data, rate, permuteGeneric) }

// absorbViaPermute is the Go loop over the dispatched single-state
// permutation, what AbsorbBlocks runs when no fused variant is selected.
func absorbViaPermute(a *[25]uint64, data []byte, rate int) { absorbGo(a, data, rate, x1.Fn()) }
