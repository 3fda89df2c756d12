// Package isafeat derives the CPU features of every function an avo
// generator built from avo's own instruction metadata (the ISA sets of
// its instruction database, which avo also prints as each function's
// "// Requires:" line), and checks them against what a variant's isa knob
// allows, so that a feature list is never written by hand and an
// isa=avx2 variant containing an EVEX or K-mask instruction fails
// generation instead of raising SIGILL on an AVX2-only CPU.
//
// Generators call Derive once every function is built (after
// build.Generate, which also prints the same sets as "Requires:").
package isafeat

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mmcloughlin/avo/ir"
	"github.com/tunelab/tunelab/internal/avoisa"
	"github.com/tunelab/tunelab/variants/internal/avogen"
)

// A Func is one generated function and the dispatch features it requires.
type Func struct {
	Name     string
	Features []string
	fn       *ir.Function
}

// Funcs maps function (TEXT symbol) names to their features.
type Funcs map[string]Func

// Derive returns every function of the generator's global build context
// with its required features.
func Derive() (Funcs, error) {
	f, err := avogen.File()
	if err != nil {
		return nil, err
	}
	out := Funcs{}
	for _, fn := range f.Functions() {
		feats, err := avoisa.Features(isaOf(fn))
		if err != nil {
			return nil, fmt.Errorf("function %s: %w", fn.Name, err)
		}
		out[fn.Name] = Func{Name: fn.Name, Features: feats, fn: fn}
	}
	return out, nil
}

// isaOf is the union of the ISA lists of fn's instructions: what avo's
// RequiredISAExtensions pass stores in fn.ISA and prints as "Requires:".
func isaOf(fn *ir.Function) []string {
	var out []string
	for _, inst := range fn.Instructions() {
		for _, isa := range inst.ISA {
			if !slices.Contains(out, isa) {
				out = append(out, isa)
			}
		}
	}
	return out
}

// Features returns the union of the features of the named functions (the
// functions one variant executes), checked against the ceiling of the
// variant's knobs; the error names the variant, the function and the
// first instruction that needs more.
func (fs Funcs) Features(variant string, allowed Ceiling, symbols ...string) ([]string, error) {
	var out []string
	for _, sym := range symbols {
		fn, ok := fs[sym]
		if !ok {
			return nil, fmt.Errorf("variant %s: no generated function %s", variant, sym)
		}
		if err := fn.within(allowed); err != nil {
			return nil, fmt.Errorf("variant %s: %w", variant, err)
		}
		for _, f := range fn.Features {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// within returns an error naming the first instruction of fn that requires
// a feature allowed does not accept.
func (fn Func) within(allowed Ceiling) error {
	for _, inst := range fn.fn.Instructions() {
		feats, err := avoisa.Features(inst.ISA)
		if err != nil {
			return fmt.Errorf("function %s, instruction %s: %w", fn.Name, avogen.Asm(inst), err)
		}
		for _, f := range feats {
			if !allowed(f) {
				return fmt.Errorf("function %s: instruction %s needs %s (%s), beyond its isa knob",
					fn.Name, avogen.Asm(inst), f, strings.Join(inst.ISA, ", "))
			}
		}
	}
	return nil
}

// A Ceiling reports whether a variant's knobs allow it to require a
// feature.
type Ceiling func(feature string) bool

// Allowed returns the ceiling of an isa knob value, by the tier its name
// states: "scalar", "amd64" and "generic" allow only general-purpose
// extensions (BMI, ADX, ...); a name containing "512" (avx512, avx512vl,
// avx512ifma, vaes512) allows every feature; any other vector isa (avx2,
// aesni, vaes256) allows everything but AVX-512.
func Allowed(isa string) Ceiling {
	switch {
	case isa == "scalar" || isa == "amd64" || isa == "generic":
		return func(f string) bool { return slices.Contains(generalPurpose, f) }
	case strings.Contains(isa, "512"):
		return func(string) bool { return true }
	default:
		return func(f string) bool { return !strings.HasPrefix(f, "avx512") }
	}
}

// generalPurpose lists the extensions of general-purpose-register
// instructions: what a scalar variant may use.
var generalPurpose = []string{"bmi1", "bmi2", "adx", "popcnt", "lzcnt", "movbe"}
