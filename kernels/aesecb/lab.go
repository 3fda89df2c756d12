package aesecb

// RegisterVariants registers every generated variant with kernels/variant
// for the lab (tunelab, its workers, tests) and re-plans dispatch among
// them all, so that TUNELAB_DISPATCH can force any of them. Package init
// registers only the variants the compiled dispatch table can select;
// production code need not call RegisterVariants and then links only
// those. It is safe to call more than once and from several goroutines;
// without assembly (purego, other architectures) it registers nothing.
func RegisterVariants() {
	for _, k := range kernels {
		k.slot.AddLab(labImpls(k.name))
	}
}
