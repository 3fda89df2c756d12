//go:build !purego

package mlkem

// The row product's assembly variants (mlkem.mulcache, mlkem.matvec),
// their stubs and tables are generated:
//go:generate go run ../../variants/matvec -scheme kem -out matvec_amd64.s -stubs zmatvec_stubs_amd64.go -pkg mlkem -table zmatvec_variants_amd64.go -prod zmatvec_prod_amd64.go -lab ../../lab/variants/mlkem -ct ../../lab/ct/zstatic_matvec_mlkem.go -bounds ../../lab/bounds/zstatic_matvec_mlkem.go
