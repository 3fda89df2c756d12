package mldsa

import (
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/internal/nttfield"
)

// The slots of the three kernels, each its own statically initialized
// variable: a program calling only NTT links only the NTT's variants.
// Each is planned at its first call among the generic code and the
// production table, or among every variant once RegisterVariants
// registered the lab's.
var (
	nttSlot    = kernelset.Slot[nttfield.Unary[int32]]{Name: "mldsa.ntt", Generic: nttGeneric, Table: prodAsmNTT}
	invNTTSlot = kernelset.Slot[nttfield.Unary[int32]]{Name: "mldsa.invntt", Generic: invNTTGeneric, Table: prodAsmInvNTT}
	mulNTTSlot = kernelset.Slot[nttfield.Binary[int32]]{Name: "mldsa.mulntt", Generic: mulNTTGeneric, Table: prodAsmMulNTT}
)

// kernels names the three slots and the field for the lab.
var kernels = nttfield.Set[int32]{NTT: &nttSlot, InvNTT: &invNTTSlot, MulNTT: &mulNTTSlot,
	Name: "mldsa", Bench: "MLDSA", Title: "ML-DSA", Standard: "FIPS 204", Algs: [3]int{41, 42, 45}, Q: Q}
