package mldsa

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// kernels holds the implementations the public API calls, chosen at init
// among the production tables and again among the lab tables by
// RegisterVariants.
var kernels = nttfield.NewSet(nttfield.Tables[int32]{
	NTT: nttGeneric, InvNTT: invNTTGeneric, MulNTT: mulNTTGeneric,
	ProdNTT: prodAsmNTT, ProdInvNTT: prodAsmInvNTT, ProdMulNTT: prodAsmMulNTT,
	NTTSpec:    spec("mldsa.ntt", "MLDSANTT", "ML-DSA NTT (FIPS 204 Alg. 41)"),
	InvNTTSpec: spec("mldsa.invntt", "MLDSAInvNTT", "ML-DSA inverse NTT (FIPS 204 Alg. 42)"),
	MulNTTSpec: spec("mldsa.mulntt", "MLDSAMulNTT", "ML-DSA NTT-domain product (FIPS 204 Alg. 45)"),
})

func spec(kernel, bench, doc string) nttfield.Spec[int32] {
	return nttfield.Spec[int32]{Kernel: kernel, Family: "ntt", Bench: bench, Doc: doc, Q: Q}
}
