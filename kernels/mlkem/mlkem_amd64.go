//go:build !purego

package mlkem

// The assembly variants, their stubs and the asmNTT, asmInvNTT and
// asmMulNTT tables are generated:
//go:generate go run ../../variants/ntt -field kem -out mlkem_amd64.s -stubs zstubs_amd64.go -pkg mlkem -table zvariants_amd64.go
