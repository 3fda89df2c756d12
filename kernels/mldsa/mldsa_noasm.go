//go:build !amd64 || purego

package mldsa

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// Without assembly only the generic variants exist.
var (
	asmNTT    []nttfield.Impl[nttfield.Unary[int32]]
	asmInvNTT []nttfield.Impl[nttfield.Unary[int32]]
	asmMulNTT []nttfield.Impl[nttfield.Binary[int32]]
)
