package keccak

// Permute applies Keccak-f[1600] (24 rounds) to the state a, lane (x, y)
// at a[x+5y].
func Permute(a *[25]uint64) { permuteX1(a) }

// PermuteX2 applies Keccak-f[1600] to each of two independent states.
func PermuteX2(a *[2][25]uint64) { permuteX2(a) }

// PermuteX4 applies Keccak-f[1600] to each of four independent states.
func PermuteX4(a *[4][25]uint64) { permuteX4(a) }

// PermuteX8 applies Keccak-f[1600] to each of eight independent states.
func PermuteX8(a *[8][25]uint64) { permuteX8(a) }
