package aesecb

import (
	"sync"

	"github.com/tunelab/tunelab/kernels/variant"
)

var labOnce sync.Once

// RegisterVariants registers every generated variant with kernels/variant
// for the lab (tunelab, its workers, tests) and re-plans dispatch among
// them all, so that TUNELAB_DISPATCH can force any of them. Package init
// registers only the variants the compiled dispatch table can select;
// production code need not call RegisterVariants and then links only
// those. It is safe to call more than once and from several goroutines;
// without assembly (purego, other architectures) it registers nothing.
func RegisterVariants() {
	labOnce.Do(func() {
		for _, k := range kernels {
			all := labImpls(k.name)
			prod := prodImpls(k.name)
			var rest []variant.Impl[cryptFunc]
			for _, im := range all {
				if variant.Find(prod, im.Name) == nil {
					rest = append(rest, im)
				}
			}
			k.registerImpls(rest)
			k.replan(all)
		}
	})
}
