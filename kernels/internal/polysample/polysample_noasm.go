//go:build !amd64 || purego

package polysample

import "github.com/tunelab/tunelab/kernels/variant"

// Without assembly the samplers have only their generic code.
func asmRejNTT12() []variant.Impl[rej12Fn] { return nil }
func asmRejNTT23() []variant.Impl[rej23Fn] { return nil }
func asmRejEta() []variant.Impl[rejEtaFn]  { return nil }

func asmCBD2() []variant.Impl[cbd2Fn]             { return nil }
func asmCBD3() []variant.Impl[cbd3Fn]             { return nil }
func asmExpandMask() []variant.Impl[expandMaskFn] { return nil }

var (
	prodAsmCBD2       []variant.Impl[cbd2Fn]
	prodAsmCBD3       []variant.Impl[cbd3Fn]
	prodAsmExpandMask []variant.Impl[expandMaskFn]
	prodAsmRejNTT12   []variant.Impl[rej12Fn]
	prodAsmRejNTT23   []variant.Impl[rej23Fn]
	prodAsmRejEta     []variant.Impl[rejEtaFn]
)
