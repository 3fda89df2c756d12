package mldsa

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// kernels holds the implementations the public API calls, chosen at init
// among the production tables and again among the lab tables by
// RegisterVariants.
var kernels = nttfield.NewSet(nttfield.Tables[int32]{
	Name: "mldsa", Bench: "MLDSA", Title: "ML-DSA", Standard: "FIPS 204", Algs: [3]int{41, 42, 45}, Q: Q,
	NTT: nttGeneric, InvNTT: invNTTGeneric, MulNTT: mulNTTGeneric,
	ProdNTT: prodAsmNTT, ProdInvNTT: prodAsmInvNTT, ProdMulNTT: prodAsmMulNTT,
})
