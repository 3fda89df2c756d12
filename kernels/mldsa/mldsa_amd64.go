//go:build !purego

package mldsa

// The assembly variants, their stubs and the asmNTT, asmInvNTT and
// asmMulNTT tables are generated:
//go:generate go run ../../variants/ntt -field dsa -out mldsa_amd64.s -stubs zstubs_amd64.go -pkg mldsa -table zvariants_amd64.go
