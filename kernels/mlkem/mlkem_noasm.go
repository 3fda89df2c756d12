//go:build !amd64 || purego

package mlkem

import (
	"github.com/tunelab/tunelab/kernels/internal/nttfield"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Without assembly only the generic variants exist: the lab tables and
// the production tables are empty.
func asmNTT() []variant.Impl[nttfield.Unary[int16]]     { return nil }
func asmInvNTT() []variant.Impl[nttfield.Unary[int16]]  { return nil }
func asmMulNTT() []variant.Impl[nttfield.Binary[int16]] { return nil }

func asmMulCache() []variant.Impl[mulCacheFn] { return nil }
func asmMatVec() []variant.Impl[matVecFn]     { return nil }

var (
	prodAsmMulCache []variant.Impl[mulCacheFn]
	prodAsmMatVec   []variant.Impl[matVecFn]
	prodAsmNTT      []variant.Impl[nttfield.Unary[int16]]
	prodAsmInvNTT   []variant.Impl[nttfield.Unary[int16]]
	prodAsmMulNTT   []variant.Impl[nttfield.Binary[int16]]
)
