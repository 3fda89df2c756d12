package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

// AVX2 has no 64-bit rotation: a rotation is two shifts and an OR, and the
// shifts compete for the two shift ports of Zen 3/4 and Alder Lake (about
// 58 of a round's 188 vector µops for lane-sliced states). The rotation
// knobs take work off those ports where the offset allows it:
//
//   - rot=shufb: the rho offsets 8 and 56 (lanes 19 and 23) are whole
//     bytes, so the rotation is one VPSHUFB by a constant byte mask
//     (byteRotMask) from RODATA: 1 µop instead of 3;
//   - rot=shufb+add: as shufb, and every rotation by 1 (theta's five
//     C[x+1] <<< 1, rho's lane 1) drops its left shift: x << 1 = x + x.
//     In theta, where B[0..4] are free, the carried-out bit needs no shift
//     either (rol1): x <<< 1 = (x + x) - (0 > x), the signed compare giving
//     -1 exactly when bit 63 is set.

// byteRotMasks holds the VPSHUFB masks of the byte-multiple rotations, by
// offset in bits.
var byteRotMasks = map[int]Mem{}

// declareByteRotMasks declares the masks for rotations left by 8 and 56
// bits: byte i of every 64-bit lane takes byte i - n/8 (mod 8) of the same
// lane. VPSHUFB indexes within each 128-bit block, so byte i of the
// 32-byte mask is 8*(i/8 mod 2) + (i - n/8) mod 8; an xmm VPSHUFB reads the
// first 16 bytes.
func declareByteRotMasks() {
	for _, n := range []int{8, 56} {
		m := GLOBL(fmt.Sprintf("keccakRotB%d", n), RODATA|NOPTR)
		for i := 0; i < 32; i++ {
			DATA(i, U8(byteRotIndex(n, i)))
		}
		byteRotMasks[n] = m
	}
}

// byteRotIndex is byte i of the VPSHUFB mask rotating every 64-bit lane
// left by n bits (n a multiple of 8).
func byteRotIndex(n, i int) int { return 8*(i/8%2) + (i-n/8+8)%8 }

// byteRotMask returns the VPSHUFB mask rotating every 64-bit lane left by
// n bits (8 or 56).
func byteRotMask(n int) Mem {
	m, ok := byteRotMasks[n%64]
	if !ok {
		panic(fmt.Sprintf("keccak generator: no byte-rotation mask for %d bits", n))
	}
	return m
}

// rol1: dst = src <<< 1 = (src + src) - (0 > src), with zero a register
// holding 0 and m a temporary: no shift µop. dst, zero and m differ from
// src.
func (s *spillState) rol1(dst, src, zero, m int) {
	VPADDQ(s.r(src), s.r(src), s.r(dst))
	VPCMPGTQ(s.r(src), s.r(zero), s.r(m))
	VPSUBQ(s.r(m), s.r(dst), s.r(dst))
}
