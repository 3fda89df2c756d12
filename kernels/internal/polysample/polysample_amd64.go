//go:build !purego

package polysample

// The samplers' assembly variants, their stubs, the lab tables
// asmRejNTT12, asmRejNTT23 and asmRejEta and the production tables
// prodAsm... are generated:
//go:generate go run ../../../variants/sample -out sample_amd64.s -stubs zstubs_amd64.go -pkg polysample -table zvariants_amd64.go -prod zprod_amd64.go -lab ../../../lab/variants/polysample -ct ../../../lab/ct/zstatic_sample.go
