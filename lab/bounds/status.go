// Package bounds holds the value-bound status of every generated variant
// of a kernel with a contract (internal/contract), as the range analysis
// of its generator (variants/internal/bounds, the -bounds flag) wrote it
// during go generate: zstatic_*.go. `tunelab bounds` prints it.
package bounds

import (
	"sort"
	"sync"
)

// A Variant is the analysis of one generated variant.
type Variant struct {
	Kernel, Name, Symbol string
	Status               string // "proven", "overflow" or "unproven"
	Lo, Hi               int64  // the proven output bound (Status proven)
	// Index, Instr, Lane and Why are the finding of an overflow or why
	// the analysis could not prove it (Index: the instruction in the
	// function, -1 for none; Lane: -1 for none).
	Index int
	Instr string
	Lane  int
	Why   string
}

// The statuses.
const (
	Proven   = "proven"
	Overflow = "overflow"
	Unproven = "unproven"
)

// A Planted is a defect the generator planted on a copy of a variant
// (variants/internal/bounds.Plants) and the analysis of the copy: the
// self-test requires Status overflow with a lane and an instruction.
type Planted struct {
	Defect, Doc     string
	Kernel, Variant string
	Status          string
	Index           int
	Instr           string
	Lane            int
	Why             string
}

// OK reports whether the analysis flagged the planted defect as an
// overflow with its lane and instruction.
func (p Planted) OK() bool { return p.Status == Overflow && p.Lane >= 0 && p.Instr != "" }

var (
	mu       sync.Mutex
	variants []Variant
	planted  []Planted
)

func registerPlanted(ps []Planted) {
	mu.Lock()
	defer mu.Unlock()
	planted = append(planted, ps...)
}

// PlantedDefects returns the recorded planted defects.
func PlantedDefects() []Planted {
	mu.Lock()
	defer mu.Unlock()
	return append([]Planted(nil), planted...)
}

// register records a generated status file's variants (called from the
// zstatic files' init).
func register(vs []Variant) {
	mu.Lock()
	defer mu.Unlock()
	variants = append(variants, vs...)
}

// Variants returns every recorded variant, sorted by kernel, in each
// kernel the generator's order.
func Variants() []Variant {
	mu.Lock()
	defer mu.Unlock()
	out := append([]Variant(nil), variants...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Kernel < out[j].Kernel })
	return out
}

// Of returns the status of variant name of kernel.
func Of(kernel, name string) (Variant, bool) {
	for _, v := range Variants() {
		if v.Kernel == kernel && v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}
