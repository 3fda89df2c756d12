package mlkem

import (
	"sync"

	"github.com/tunelab/tunelab/kernels/internal/nttfield"
)

// The kernels' specs.
var (
	nttSpec    = spec("mlkem.ntt", "MLKEMNTT", "ML-KEM NTT (FIPS 203 Alg. 9)")
	invNTTSpec = spec("mlkem.invntt", "MLKEMInvNTT", "ML-KEM inverse NTT (FIPS 203 Alg. 10)")
	mulNTTSpec = spec("mlkem.mulntt", "MLKEMMulNTT", "ML-KEM NTT-domain product (FIPS 203 Alg. 11)")
)

// The implementations the public API calls, chosen at init among the
// production tables, and again among the lab tables by RegisterVariants.
var (
	nttImpl    nttfield.Unary[int16]
	invNTTImpl nttfield.Unary[int16]
	mulNTTImpl nttfield.Binary[int16]
)

func init() {
	nttImpl = nttfield.RegisterUnary(nttSpec, nttGeneric, prodAsmNTT)
	invNTTImpl = nttfield.RegisterUnary(invNTTSpec, invNTTGeneric, prodAsmInvNTT)
	mulNTTImpl = nttfield.RegisterBinary(mulNTTSpec, mulNTTGeneric, prodAsmMulNTT)
}

var labOnce sync.Once

// registerLab registers the lab tables' variants that production did not
// and chooses the implementations again among all of them, once.
func registerLab() {
	labOnce.Do(func() {
		nttImpl = nttfield.AddUnary(nttSpec, nttGeneric, asmNTT())
		invNTTImpl = nttfield.AddUnary(invNTTSpec, invNTTGeneric, asmInvNTT())
		mulNTTImpl = nttfield.AddBinary(mulNTTSpec, mulNTTGeneric, asmMulNTT())
	})
}

func spec(kernel, bench, doc string) nttfield.Spec[int16] {
	return nttfield.Spec[int16]{Kernel: kernel, Family: "ntt", Bench: bench, Doc: doc, Q: Q}
}
