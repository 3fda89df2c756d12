//go:build !purego

package polysample

// The fixed-length samplers' assembly variants, their stubs, the lab
// tables asmCBD2, asmCBD3 and asmExpandMask and the production tables
// prodAsm... are generated:
//go:generate go run ../../../variants/cbd -out cbd_amd64.s -stubs zcbd_stubs_amd64.go -pkg polysample -table zcbd_variants_amd64.go -prod zcbd_prod_amd64.go -lab ../../../lab/variants/polysample -ct ../../../lab/ct/zstatic_cbd.go -bounds ../../../lab/bounds/zstatic_cbd.go
