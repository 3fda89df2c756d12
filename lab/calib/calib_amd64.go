//go:build !purego

package calib

//go:generate go run ../../variants/calib -out calib_amd64.s -stubs zstubs_amd64.go -pkg calib -table zvariants_amd64.go -prod zprod_amd64.go -ct ../../lab/ct/zstatic_calib.go

// registerAsm registers the generated chains (after the kernel); the
// calibration family is lab-only, so production tables name none of them.
func registerAsm() {
	for _, im := range asmChains() {
		registerChain(im)
	}
}
