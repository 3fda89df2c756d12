TEXT ·permute(SB), NOSPLIT, $0-8
	// theta: C[x] = A[x,0]^...^A[x,4]
	VPTERNLOGQ $0x96, Z1, Z2, Z3
	VPXORQ     Z4, Z3, Z3
	// rho: rotate lanes
	VPROLQ     $1, Z3, Z5
	// chi: A ^= ~B & C
	VPTERNLOGQ $0xd2, Z5, Z6, Z7
	DECQ       AX
	JNZ        loop
