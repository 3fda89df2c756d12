#include "textflag.h"

// func compressW(dst, src *[32]uint16, mask uint32)
TEXT ·compressW(SB), NOSPLIT, $0-20
	MOVQ dst+0(FP), AX
	MOVQ src+8(FP), BX
	MOVL mask+16(FP), CX
	KMOVD CX, K2
	VMOVDQU16 (AX), Z5
	VMOVDQU16 (BX), Z4
	VPCOMPRESSW Z4, K2, Z5
	VMOVDQU16 Z5, (AX)
	VZEROUPPER
	RET
