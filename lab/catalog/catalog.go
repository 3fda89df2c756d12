// Package catalog lists every kernel and variant of this tunelab with
// what a decision needs to know of a variant besides its measurements:
// the CPU features it needs, its code size, and whether it is an
// external reference or an offset-sweep copy. The list (zcatalog.go) is generated from the
// registry of a full build (variants/catalog), so it is the same in
// every build, purego included: reports take from it what a result file
// did not record, and never look at what the binary reading the file has
// linked.
//
// Renames (renames.go) map the kernel and variant names of result files
// written by older commits onto today's.
package catalog

//go:generate go run ../../variants/catalog -out zcatalog.go -planned ../../kernels/dispatch/zkernels.go

import "sync"

// A Kernel is one kernel of the catalog.
type Kernel struct {
	Name, Bench string
	// Operation marks a whole operation, swept but never dispatched.
	Operation bool
}

// An Entry is one variant of the catalog.
type Entry struct {
	Kernel, Name string
	// Features are the CPU features the variant needs, sorted.
	Features []string
	// CodeBytes is the size of its generated function (0 for Go code).
	CodeBytes             int
	External, OffsetSweep bool
	// GoCode marks a variant with no generated function (Go code).
	GoCode bool
	// Preferred marks its generator's declared default (variant.Impl).
	Preferred bool
}

var (
	indexOnce sync.Once
	byKernel  map[string]*Kernel
	byName    map[[2]string]*Entry
	ofKernel  map[string][]*Entry
)

func index() {
	byKernel = make(map[string]*Kernel, len(kernels))
	for i := range kernels {
		byKernel[kernels[i].Name] = &kernels[i]
	}
	byName = make(map[[2]string]*Entry, len(entries))
	ofKernel = make(map[string][]*Entry, len(kernels))
	for i := range entries {
		e := &entries[i]
		byName[[2]string{e.Kernel, e.Name}] = e
		ofKernel[e.Kernel] = append(ofKernel[e.Kernel], e)
	}
}

// Variants returns kernel's variants, sorted by name.
func Variants(kernel string) []*Entry {
	indexOnce.Do(index)
	return ofKernel[kernel]
}

// LookupKernel returns the kernel named name, or nil.
func LookupKernel(name string) *Kernel {
	indexOnce.Do(index)
	return byKernel[name]
}

// Lookup returns kernel's variant named name, or nil.
func Lookup(kernel, name string) *Entry {
	indexOnce.Do(index)
	return byName[[2]string{kernel, name}]
}

// Fingerprint returns the fingerprint of today's variant set, as a
// sweep of this tunelab records it (variant-set config).
func Fingerprint() string { return fingerprint }

// Len returns the number of variants in the catalog.
func Len() int { return len(entries) }
