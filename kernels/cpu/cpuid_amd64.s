//go:build amd64 && gc

#include "textflag.h"

// func cpuidLeaf1EAX() uint32
TEXT ·cpuidLeaf1EAX(SB), NOSPLIT, $0-4
	MOVL $1, AX
	XORL CX, CX
	CPUID
	MOVL AX, ret+0(FP)
	RET
