//go:build !purego

package mldsa

// The assembly variants, their stubs, the lab tables asmNTT, asmInvNTT and
// asmMulNTT and the production tables prodAsmNTT, prodAsmInvNTT and
// prodAsmMulNTT are generated:
//go:generate go run ../../variants/ntt -field dsa -out mldsa_amd64.s -stubs zstubs_amd64.go -pkg mldsa -table zvariants_amd64.go -prod zprod_amd64.go -lab ../../lab/variants/mldsa -ct ../../lab/ct/zstatic_mldsa.go -bounds ../../lab/bounds/zstatic_mldsa.go
