//go:build !purego

package mldsa

// The rounding kernels' assembly variants, their stubs, the lab tables
// asmLowBits, asmMakeHint, asmResponse and asmW1Pack4 and the production
// tables prodAsm... are generated:
//go:generate go run ../../variants/round -out round_amd64.s -stubs zround_stubs_amd64.go -pkg mldsa -table zround_variants_amd64.go -prod zround_prod_amd64.go -lab ../../lab/variants/mldsa -ct ../../lab/ct/zstatic_round.go -bounds ../../lab/bounds/zstatic_round.go
