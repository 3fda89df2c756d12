//go:build !amd64 || purego

package polysample

import "github.com/tunelab/tunelab/kernels/variant"

// Without assembly the samplers have only their generic code.
func asmRejNTT12() []variant.Impl[rej12Fn] { return nil }
func asmRejNTT23() []variant.Impl[rej23Fn] { return nil }
func asmRejEta() []variant.Impl[rejEtaFn]  { return nil }

var (
	prodAsmRejNTT12 []variant.Impl[rej12Fn]
	prodAsmRejNTT23 []variant.Impl[rej23Fn]
	prodAsmRejEta   []variant.Impl[rejEtaFn]
)
