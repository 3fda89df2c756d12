package mlkem

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// kernels holds the implementations the public API calls, chosen at init
// among the production tables and again among the lab tables by
// RegisterVariants.
var kernels = nttfield.NewSet(nttfield.Tables[int16]{
	NTT: nttGeneric, InvNTT: invNTTGeneric, MulNTT: mulNTTGeneric,
	ProdNTT: prodAsmNTT, ProdInvNTT: prodAsmInvNTT, ProdMulNTT: prodAsmMulNTT,
	NTTSpec:    spec("mlkem.ntt", "MLKEMNTT", "ML-KEM NTT (FIPS 203 Alg. 9)"),
	InvNTTSpec: spec("mlkem.invntt", "MLKEMInvNTT", "ML-KEM inverse NTT (FIPS 203 Alg. 10)"),
	MulNTTSpec: spec("mlkem.mulntt", "MLKEMMulNTT", "ML-KEM NTT-domain product (FIPS 203 Alg. 11)"),
})

func spec(kernel, bench, doc string) nttfield.Spec[int16] {
	return nttfield.Spec[int16]{Kernel: kernel, Family: "ntt", Bench: bench, Doc: doc, Q: Q}
}
