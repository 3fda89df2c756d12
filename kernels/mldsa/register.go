package mldsa

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// The implementations the public API calls, chosen once at init.
var (
	nttImpl    nttfield.Unary[int32]
	invNTTImpl nttfield.Unary[int32]
	mulNTTImpl nttfield.Binary[int32]
)

func init() {
	nttImpl = nttfield.RegisterUnary(spec("mldsa.ntt", "MLDSANTT", "ML-DSA NTT (FIPS 204 Alg. 41)"),
		nttGeneric, asmNTT)
	invNTTImpl = nttfield.RegisterUnary(spec("mldsa.invntt", "MLDSAInvNTT", "ML-DSA inverse NTT (FIPS 204 Alg. 42)"),
		invNTTGeneric, asmInvNTT)
	mulNTTImpl = nttfield.RegisterBinary(spec("mldsa.mulntt", "MLDSAMulNTT", "ML-DSA NTT-domain product (FIPS 204 Alg. 45)"),
		mulNTTGeneric, asmMulNTT)
}

func spec(kernel, bench, doc string) nttfield.Spec[int32] {
	return nttfield.Spec[int32]{Kernel: kernel, Family: "ntt", Bench: bench, Doc: doc, Q: Q}
}
