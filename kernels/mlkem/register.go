package mlkem

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// kernels holds the implementations the public API calls, chosen at init
// among the production tables and again among the lab tables by
// RegisterVariants.
var kernels = nttfield.NewSet(nttfield.Tables[int16]{
	Name: "mlkem", Bench: "MLKEM", Title: "ML-KEM", Standard: "FIPS 203", Algs: [3]int{9, 10, 11}, Q: Q,
	NTT: nttGeneric, InvNTT: invNTTGeneric, MulNTT: mulNTTGeneric,
	ProdNTT: prodAsmNTT, ProdInvNTT: prodAsmInvNTT, ProdMulNTT: prodAsmMulNTT,
})
