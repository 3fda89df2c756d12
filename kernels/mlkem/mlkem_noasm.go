//go:build !amd64 || purego

package mlkem

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// Without assembly only the generic variants exist.
var (
	asmNTT    []nttfield.Impl[nttfield.Unary[int16]]
	asmInvNTT []nttfield.Impl[nttfield.Unary[int16]]
	asmMulNTT []nttfield.Impl[nttfield.Binary[int16]]
)
