//go:build !purego

package keccak

//go:generate go run ../../variants/keccak -out keccak_amd64.s -stubs zstubs_amd64.go -pkg keccak -table zvariants_amd64.go

// An asmVariant is one generated variant, as listed in zvariants_amd64.go.
type asmVariant = impl

// asmImpls are the generated variants.
var asmImpls = asmVariants
