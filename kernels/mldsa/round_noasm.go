//go:build !amd64 || purego

package mldsa

import "github.com/tunelab/tunelab/kernels/variant"

// Without assembly the rounding kernels have only their generic code.
func asmLowBits() []variant.Impl[lowBitsFn]   { return nil }
func asmMakeHint() []variant.Impl[makeHintFn] { return nil }
func asmResponse() []variant.Impl[responseFn] { return nil }
func asmW1Pack4() []variant.Impl[w1Pack4Fn]   { return nil }

func asmPower2Round() []variant.Impl[power2RoundFn] { return nil }

var (
	prodAsmLowBits  []variant.Impl[lowBitsFn]
	prodAsmMakeHint []variant.Impl[makeHintFn]
	prodAsmResponse []variant.Impl[responseFn]
	prodAsmW1Pack4  []variant.Impl[w1Pack4Fn]

	prodAsmPower2Round []variant.Impl[power2RoundFn]
)

func asmMatVec() []variant.Impl[matVecFn] { return nil }

var prodAsmMatVec []variant.Impl[matVecFn]
