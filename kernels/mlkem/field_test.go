package mlkem

import "github.com/tunelab/tunelab/lab/nttfieldtest"

// field describes this package's kernels to the tests shared with the
// other NTT family (lab/nttfieldtest).
var field = nttfieldtest.Field[int16]{
	Prefix: "mlkem",
	Q:      Q,
	NTT:    nttGeneric, InvNTT: invNTTGeneric, MulNTT: mulNTTGeneric,
	AsmNTT: asmNTT(), AsmInvNTT: asmInvNTT(), AsmMulNTT: asmMulNTT(),
	ProdNTT: prodAsmNTT, ProdInvNTT: prodAsmInvNTT, ProdMulNTT: prodAsmMulNTT,
	APINTT: NTT, APIInvNTT: InvNTT, APIMulNTT: MulNTT,
}
