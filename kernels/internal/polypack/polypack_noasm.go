//go:build !amd64 || purego

package polypack

import "github.com/tunelab/tunelab/kernels/variant"

// Without assembly the packings have only their generic code.
func asmEncode12() []variant.Impl[encode12Fn]     { return nil }
func asmDecode12() []variant.Impl[decode12Fn]     { return nil }
func asmCompress() []variant.Impl[compressFn]     { return nil }
func asmDecompress() []variant.Impl[decompressFn] { return nil }
func asmPack() []variant.Impl[packFn]             { return nil }
func asmUnpack() []variant.Impl[unpackFn]         { return nil }

var (
	prodAsmEncode12   []variant.Impl[encode12Fn]
	prodAsmDecode12   []variant.Impl[decode12Fn]
	prodAsmCompress   []variant.Impl[compressFn]
	prodAsmDecompress []variant.Impl[decompressFn]
	prodAsmPack       []variant.Impl[packFn]
	prodAsmUnpack     []variant.Impl[unpackFn]
)
