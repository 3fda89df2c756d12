package mldsa

import (
	"sync"

	"github.com/tunelab/tunelab/kernels/internal/nttfield"
)

// The kernels' specs.
var (
	nttSpec    = spec("mldsa.ntt", "MLDSANTT", "ML-DSA NTT (FIPS 204 Alg. 41)")
	invNTTSpec = spec("mldsa.invntt", "MLDSAInvNTT", "ML-DSA inverse NTT (FIPS 204 Alg. 42)")
	mulNTTSpec = spec("mldsa.mulntt", "MLDSAMulNTT", "ML-DSA NTT-domain product (FIPS 204 Alg. 45)")
)

// The implementations the public API calls, chosen at init among the
// production tables, and again among the lab tables by RegisterVariants.
var (
	nttImpl    nttfield.Unary[int32]
	invNTTImpl nttfield.Unary[int32]
	mulNTTImpl nttfield.Binary[int32]
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

func spec(kernel, bench, doc string) nttfield.Spec[int32] {
	return nttfield.Spec[int32]{Kernel: kernel, Family: "ntt", Bench: bench, Doc: doc, Q: Q}
}
