//go:build !purego

package mlkem

// The assembly variants, their stubs, the lab tables asmNTT, asmInvNTT and
// asmMulNTT and the production tables prodAsmNTT, prodAsmInvNTT and
// prodAsmMulNTT are generated:
//go:generate go run ../../variants/ntt -field kem -out mlkem_amd64.s -stubs zstubs_amd64.go -pkg mlkem -table zvariants_amd64.go -prod zprod_amd64.go -lab ../../lab/variants/mlkem -ct ../../lab/ct/zstatic_mlkem.go -bounds ../../lab/bounds/zstatic_mlkem.go
