package main

// Facts of Keccak-f[1600] (FIPS 202, section 3.2), computed from first
// principles rather than pasted.

// numRounds is the number of rounds of Keccak-f[1600].
const numRounds = 24

// lane returns the index of lane (x, y) in the state-major layout a[x+5y].
func lane(x, y int) int { return x%5 + 5*(y%5) }

// roundConstants returns RC[i] for round i, built from the LFSR rc(t) of
// FIPS 202 Algorithm 5: RC[i] bit 2^j-1 = rc(j + 7i) for j = 0..6.
func roundConstants() [numRounds]uint64 {
	var rc [numRounds]uint64
	for i := range rc {
		for j := 0; j <= 6; j++ {
			if lfsrBit(j + 7*i) {
				rc[i] |= 1 << ((1 << j) - 1)
			}
		}
	}
	return rc
}

// lfsrBit is rc(t): the output of the LFSR x^8 + x^6 + x^5 + x^4 + 1
// after t mod 255 steps from R = 1.
func lfsrBit(t int) bool {
	r := 1
	for i := 0; i < t%255; i++ {
		r <<= 1
		if r&0x100 != 0 {
			r ^= 0x171
		}
	}
	return r&1 == 1
}

// rotations returns the rho offsets r[x+5y]: starting from (x, y) = (1, 0),
// lane t (t = 0..23) is rotated by (t+1)(t+2)/2 mod 64 and (x, y) moves to
// (y, 2x+3y mod 5).
func rotations() [25]int {
	var r [25]int
	x, y := 1, 0
	for t := 0; t < 24; t++ {
		r[lane(x, y)] = (t + 1) * (t + 2) / 2 % 64
		x, y = y, (2*x+3*y)%5
	}
	return r
}

// piDest returns where pi moves lane i: B[y, 2x+3y] = A[x, y].
func piDest(i int) int {
	x, y := i%5, i/5
	return lane(y, 2*x+3*y)
}

// piSource returns the lane of A that pi moves to lane (x, y) of B:
// B[x, y] = A[x+3y, x].
func piSource(x, y int) int { return lane(x+3*y, x) }

var (
	rc  = roundConstants()
	rho = rotations()
)
