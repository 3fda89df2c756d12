package mlkem

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
	nttSlot    = kernelset.Slot[nttfield.Unary[int16]]{Name: "mlkem.ntt", Generic: nttGeneric, Table: prodAsmNTT}
	invNTTSlot = kernelset.Slot[nttfield.Unary[int16]]{Name: "mlkem.invntt", Generic: invNTTGeneric, Table: prodAsmInvNTT}
	mulNTTSlot = kernelset.Slot[nttfield.Binary[int16]]{Name: "mlkem.mulntt", Generic: mulNTTGeneric, Table: prodAsmMulNTT}
)

// kernels names the three slots and the field for the lab.
var kernels = nttfield.Set[int16]{NTT: &nttSlot, InvNTT: &invNTTSlot, MulNTT: &mulNTTSlot,
	Name: "mlkem", Bench: "MLKEM", Title: "ML-KEM", Standard: "FIPS 203", Algs: [3]int{9, 10, 11}, Q: Q}
