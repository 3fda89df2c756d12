package mlkem

import "github.com/tunelab/tunelab/kernels/internal/nttfield"

// The implementations the public API calls, chosen once at init.
var (
	nttImpl    nttfield.Unary[int16]
	invNTTImpl nttfield.Unary[int16]
	mulNTTImpl nttfield.Binary[int16]
)

func init() {
	nttImpl = nttfield.RegisterUnary(spec("mlkem.ntt", "MLKEMNTT", "ML-KEM NTT (FIPS 203 Alg. 9)"),
		nttGeneric, asmNTT)
	invNTTImpl = nttfield.RegisterUnary(spec("mlkem.invntt", "MLKEMInvNTT", "ML-KEM inverse NTT (FIPS 203 Alg. 10)"),
		invNTTGeneric, asmInvNTT)
	mulNTTImpl = nttfield.RegisterBinary(spec("mlkem.mulntt", "MLKEMMulNTT", "ML-KEM NTT-domain product (FIPS 203 Alg. 11)"),
		mulNTTGeneric, asmMulNTT)
}

func spec(kernel, bench, doc string) nttfield.Spec[int16] {
	return nttfield.Spec[int16]{Kernel: kernel, Family: "ntt", Bench: bench, Doc: doc, Q: Q}
}
