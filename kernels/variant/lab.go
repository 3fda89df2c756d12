package variant

import (
	"fmt"
	"slices"
	"sync"
)

// The lab tables: the generated packages under lab/variants hold the
// variants production does not link, and offer each kernel's table from
// their init functions; a family's RegisterVariants takes it (LabTable).
// Keyed by kernel name, so that neither side imports the other.
var (
	labMu     sync.Mutex
	labTables = map[string]any{}
)

// OfferLab records impls, a []Impl[F] listing every generated
// implementation of kernel, for LabTable. It panics on a second offer of
// the same kernel: that is a programming error in a generated package.
func OfferLab(kernel string, impls any) {
	labMu.Lock()
	defer labMu.Unlock()
	if _, dup := labTables[kernel]; dup {
		panic("variant: lab table of " + kernel + " offered twice")
	}
	labTables[kernel] = impls
}

// LabTable returns the lab table OfferLab recorded for kernel. Rows whose
// function production links have a nil Fn: the family resolves them by
// name among its production table (kernelset.Slot.AddLab). It panics if
// no table was offered (the binary does not import the kernel's package
// under lab/variants) or the table's type is not []Impl[F].
func LabTable[F any](kernel string) []Impl[F] {
	labMu.Lock()
	defer labMu.Unlock()
	t, ok := labTables[kernel]
	if !ok {
		panic("variant: no lab table offered for " + kernel + ": the binary must import its package under github.com/tunelab/tunelab/lab/variants")
	}
	impls, ok := t.([]Impl[F])
	if !ok {
		panic(fmt.Sprintf("variant: lab table of %s is a %T, want %T", kernel, t, impls))
	}
	return impls
}

// WithProd returns a copy of the lab table lab in which every row
// naming the same variant and symbol as a row of one of the production
// tables prod is that row: the rows the lab table lists without a
// function get production's.
func WithProd[F any](lab []Impl[F], prod ...[]Impl[F]) []Impl[F] {
	out := slices.Clone(lab)
	for i := range out {
		for _, p := range prod {
			j := slices.IndexFunc(p, func(im Impl[F]) bool { return im.Name == out[i].Name && im.Symbol == out[i].Symbol })
			if j >= 0 {
				out[i] = p[j]
				break
			}
		}
	}
	return out
}
