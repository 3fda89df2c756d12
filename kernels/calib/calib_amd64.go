//go:build !purego

package calib

import "github.com/tunelab/tunelab/kernels/variant"

//go:generate go run ../../variants/calib -out calib_amd64.s -stubs zstubs_amd64.go -pkg calib -table zvariants_amd64.go

// An asmChain is one generated chain (see zvariants_amd64.go).
type asmChain struct {
	name      string
	length    int
	fn        chainFunc
	symbol    string
	features  []string
	codeBytes int
}

// registerAsm registers the generated chains (after the kernel).
func registerAsm() {
	for _, c := range asmChains {
		v := newVariant(c.name, c.length, c.fn, "github.com/tunelab/tunelab/kernels/calib."+c.symbol, c.codeBytes)
		v.Features = c.features
		variant.Register(v)
	}
}
