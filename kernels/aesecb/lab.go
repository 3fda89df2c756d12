package aesecb

// RegisterVariants registers every generated variant with kernels/variant
// for the lab (tunelab, its workers, tests) and re-plans dispatch among
// them all, so that TUNELAB_DISPATCH can force any of them. Package init
// registers nothing and plans among the variants the compiled dispatch
// table can select; production code need not call RegisterVariants and
// then links only those, and none of the lab's verification. It is safe
// to call more than once and from several goroutines; without assembly
// (purego, other architectures) it registers the generic variants.
func RegisterVariants() {
	for _, k := range kernels {
		k.slot.AddLab(k.spec(), labImpls(k.name))
	}
}
