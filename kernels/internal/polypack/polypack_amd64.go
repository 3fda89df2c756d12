//go:build !purego

package polypack

// The packings' assembly variants, their stubs, the lab tables asm... and
// the production tables prodAsm... are generated:
//go:generate go run ../../../variants/pack -out pack_amd64.s -stubs zstubs_amd64.go -pkg polypack -table zvariants_amd64.go -prod zprod_amd64.go -lab ../../../lab/variants/polypack -ct ../../../lab/ct/zstatic_pack.go -bounds ../../../lab/bounds/zstatic_pack.go
