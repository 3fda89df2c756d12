//go:build !amd64 || purego

package mldsa

import (
	"github.com/tunelab/tunelab/kernels/internal/nttfield"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Without assembly only the generic variants exist: the lab tables and
// the production tables are empty.
func asmNTT() []variant.Impl[nttfield.Unary[int32]]     { return nil }
func asmInvNTT() []variant.Impl[nttfield.Unary[int32]]  { return nil }
func asmMulNTT() []variant.Impl[nttfield.Binary[int32]] { return nil }

var (
	prodAsmNTT    []variant.Impl[nttfield.Unary[int32]]
	prodAsmInvNTT []variant.Impl[nttfield.Unary[int32]]
	prodAsmMulNTT []variant.Impl[nttfield.Binary[int32]]
)
