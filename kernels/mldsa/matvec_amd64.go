//go:build !purego

package mldsa

// The row product's assembly variants, their stubs, the lab table
// asmMatVec and the production table prodAsmMatVec are generated:
//go:generate go run ../../variants/matvec -scheme dsa -out matvec_amd64.s -stubs zmatvec_stubs_amd64.go -pkg mldsa -table zmatvec_variants_amd64.go -prod zmatvec_prod_amd64.go -lab ../../lab/variants/mldsa -ct ../../lab/ct/zstatic_matvec_mldsa.go -bounds ../../lab/bounds/zstatic_matvec_mldsa.go
