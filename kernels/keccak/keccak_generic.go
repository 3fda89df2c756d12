package keccak

import "math/bits"

// roundConstants are RC[i] of the iota step (FIPS 202 section 3.2.5);
// TestRoundConstants recomputes them from the LFSR.
var roundConstants = [24]uint64{
	0x0000000000000001, 0x0000000000008082, 0x800000000000808a, 0x8000000080008000,
	0x000000000000808b, 0x0000000080000001, 0x8000000080008081, 0x8000000000008009,
	0x000000000000008a, 0x0000000000000088, 0x0000000080008009, 0x000000008000000a,
	0x000000008000808b, 0x800000000000008b, 0x8000000000008089, 0x8000000000008003,
	0x8000000000008002, 0x8000000000000080, 0x000000000000800a, 0x800000008000000a,
	0x8000000080008081, 0x8000000000008080, 0x0000000080000001, 0x8000000080008008,
}

// rotations are the rho offsets r[x+5y] (FIPS 202 section 3.2.2);
// TestRotations recomputes them.
var rotations = [25]int{
	0, 1, 62, 28, 27,
	36, 44, 6, 55, 20,
	3, 10, 43, 25, 39,
	41, 45, 15, 21, 8,
	18, 2, 61, 56, 14,
}

// permuteGeneric is the reference Keccak-f[1600]: Rnd = iota . chi . pi .
// rho . theta, 24 times, written step by step as in FIPS 202.
func permuteGeneric(a *[25]uint64) {
	for _, rc := range roundConstants {
		theta(a)
		b := rhoPi(a)
		chi(a, &b)
		a[0] ^= rc // iota
	}
}

// theta: C[x] = A[x,0]^...^A[x,4]; D[x] = C[x-1] ^ (C[x+1] <<< 1);
// A[x,y] ^= D[x].
func theta(a *[25]uint64) {
	var c [5]uint64
	for x := 0; x < 5; x++ {
		c[x] = a[x] ^ a[x+5] ^ a[x+10] ^ a[x+15] ^ a[x+20]
	}
	for x := 0; x < 5; x++ {
		d := c[(x+4)%5] ^ bits.RotateLeft64(c[(x+1)%5], 1)
		for y := 0; y < 25; y += 5 {
			a[x+y] ^= d
		}
	}
}

// rhoPi: B[y, 2x+3y] = A[x,y] <<< r[x,y].
func rhoPi(a *[25]uint64) (b [25]uint64) {
	for x := 0; x < 5; x++ {
		for y := 0; y < 5; y++ {
			b[y+5*((2*x+3*y)%5)] = bits.RotateLeft64(a[x+5*y], rotations[x+5*y])
		}
	}
	return b
}

// chi: A[x,y] = B[x,y] ^ (^B[x+1,y] & B[x+2,y]).
func chi(a, b *[25]uint64) {
	for y := 0; y < 25; y += 5 {
		for x := 0; x < 5; x++ {
			a[x+y] = b[x+y] ^ (^b[(x+1)%5+y] & b[(x+2)%5+y])
		}
	}
}

func permuteX2Generic(a *[2][25]uint64) {
	for i := range a {
		permuteGeneric(&a[i])
	}
}

func permuteX4Generic(a *[4][25]uint64) {
	for i := range a {
		permuteGeneric(&a[i])
	}
}

func permuteX8Generic(a *[8][25]uint64) {
	for i := range a {
		permuteGeneric(&a[i])
	}
}
