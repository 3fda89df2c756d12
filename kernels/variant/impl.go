package variant

import (
	"slices"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

// An Impl is one generated implementation of a kernel as its generator
// records it: the variant's name and metadata, and the function (of a
// family-specific type F). Every family's generated tables are lists of
// Impls; Variant turns one into a registry Variant, Candidates into
// dispatch candidates (kernels/internal/kernelset plans among them).
type Impl[F any] struct {
	Name        string
	Features    []string
	Symbol      string // linker symbol, as runtime.FuncForPC reports it
	LoopLabel   string
	OffsetSweep bool
	// Preferred marks the generator's declared default for a kernel the
	// compiled dispatch table does not name (dispatch.Candidate).
	Preferred bool
	Fn        F
}

// Variant returns the registry variant of im for kernel with its
// metadata; the family adds New, Verify and LoopTrips.
func (im Impl[F]) Variant(kernel string) Variant {
	return Variant{
		Kernel: kernel, Name: im.Name, Features: im.Features, Symbol: im.Symbol,
		LoopLabel: im.LoopLabel, OffsetSweep: im.OffsetSweep, Preferred: im.Preferred,
	}
}

// Candidates returns the dispatch candidates of impls (offset-sweep copies
// left out), the generic variant first.
func Candidates[F any](impls []Impl[F]) []dispatch.Candidate {
	cands := []dispatch.Candidate{{Name: GenericName}}
	for _, im := range impls {
		if !im.OffsetSweep {
			cands = append(cands, dispatch.Candidate{Name: im.Name, Features: im.Features, Preferred: im.Preferred})
		}
	}
	return cands
}

// Find returns the implementation of impls named name, or nil.
func Find[F any](impls []Impl[F], name string) *Impl[F] {
	if i := slices.IndexFunc(impls, func(im Impl[F]) bool { return im.Name == name }); i >= 0 {
		return &impls[i]
	}
	return nil
}
