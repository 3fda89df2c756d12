package dispatch

import (
	"slices"
	"sync"
)

// knownKernels lists every kernel a family plans (zkernels.go, generated
// with lab/catalog) and every kernel the compiled table (ztable.go, made
// by tunelab export from measurements) names in an entry or a default, so
// that a TUNELAB_DISPATCH entry naming another (a typo) is warned about
// in any binary, whichever packages it links. A test in lab/all
// checks that every kernel a family plans is in it, and nothing else.
var knownKernels = sync.OnceValue(func() []string {
	ks := append(slices.Clone(extraKnownKernels), plannedKernels...)
	for _, e := range compiledEntries {
		ks = append(ks, e.Kernel)
	}
	for _, d := range tableDefaults {
		ks = append(ks, d.Kernel)
	}
	slices.Sort(ks)
	return slices.Compact(ks)
})

// extraKnownKernels are known besides the table's (tests' kernels).
var extraKnownKernels []string

// KnownKernel reports whether kernel is one a tunelab package plans.
func KnownKernel(kernel string) bool {
	_, ok := slices.BinarySearch(knownKernels(), kernel)
	return ok
}

// KnownKernels returns the kernels tunelab packages plan, sorted.
func KnownKernels() []string { return slices.Clone(knownKernels()) }
