// Hand-written (not generated): reading the TSC needs an instruction that
// Go cannot express, so this file builds in every amd64 build, purego
// included.

#include "textflag.h"

// func rdtsc() uint64
TEXT ·rdtsc(SB), NOSPLIT, $0-8
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, ret+0(FP)
	RET

// func rdtscp() (tsc uint64, aux uint32)
TEXT ·rdtscp(SB), NOSPLIT, $0-12
	RDTSCP
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, tsc+0(FP)
	MOVL CX, aux+8(FP)
	RET

// func lfenceRDTSC() (tsc uint64, aux uint32)
// RDTSCP's stand-in where CPUID does not enumerate RDTSCP: LFENCE lets the
// read start only once every earlier instruction has completed. aux is 0.
TEXT ·lfenceRDTSC(SB), NOSPLIT, $0-12
	LFENCE
	RDTSC
	SHLQ $32, DX
	ORQ  DX, AX
	MOVQ AX, tsc+0(FP)
	MOVL $0, aux+8(FP)
	RET

// func cpuid(leaf, sub uint32) (a, b, c, d uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, a+8(FP)
	MOVL BX, b+12(FP)
	MOVL CX, c+16(FP)
	MOVL DX, d+20(FP)
	RET
