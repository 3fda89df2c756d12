package ct

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// A File is the static check of one generated assembly file, as its
// generator wrote it during go generate (zstatic_*.go in this package).
type File struct {
	// Package is the import path of the package the functions belong to,
	// Asm the generated .s file (relative to the module root), Generator
	// the command that wrote both.
	Package, Asm, Generator string
	// Fixture marks lab-only functions with planted leaks (package
	// leaks): their findings are expected.
	Fixture bool
	// Secret and Public are the generator's classification of the
	// functions' parameters by name (see variants/internal/ctcheck).
	Secret, Public []string
	Funcs          []Func
	Variants       []Variant
}

// A Func is one generated function, its findings and the instructions
// its generator declassified.
type Func struct {
	Name         string // TEXT symbol, without package
	Instrs       int
	Findings     []Finding
	Declassified []Declassified
	// PublicOnly marks a function with no secret parameter (by the
	// generator's classification): its timing depends on public data
	// only, and the dynamic check leaves it out.
	PublicOnly bool
}

// The kinds of findings.
const (
	Branch  = "branch"  // conditional branch on secret-dependent flags
	Address = "address" // load or store whose address depends on a secret
	Latency = "latency" // variable-latency instruction on a secret
)

// A Finding is one instruction of a generated function that can leak a
// secret through timing.
type Finding struct {
	Kind  string
	Line  int // in File.Asm
	Instr string
	Why   string
}

// A Declassified is an instruction whose outputs the generator declared
// public (ctcheck.Public): the analysis took them as public, whatever
// secrets they were computed from, for the reason Why (what the
// algorithm reveals by design, independent of the secrets).
type Declassified struct {
	Line  int // in File.Asm
	Instr string
	Why   string
}

// A Variant is one variant of a kernel as the generator's tables list it,
// with the functions it runs (indices into File.Funcs).
type Variant struct {
	Kernel, Name string
	Funcs        []int
}

var (
	mu    sync.Mutex
	files []*File
)

// register records a generated status file (called from the zstatic
// files' init).
func register(f *File) { Register(f) }

// Register records a status file and returns a function that removes it
// again (for tests standing in for generated files).
func Register(f *File) (remove func()) {
	mu.Lock()
	defer mu.Unlock()
	files = append(files, f)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		files = slices.DeleteFunc(files, func(g *File) bool { return g == f })
	}
}

// Files returns every registered status file, sorted by assembly path.
func Files() []*File {
	mu.Lock()
	defer mu.Unlock()
	out := slices.Clone(files)
	sort.Slice(out, func(i, j int) bool { return out[i].Asm < out[j].Asm })
	return out
}

// Symbol returns the linker symbol of function i of f, as
// kernels/variant.Variant.Symbol names it.
func (f *File) Symbol(i int) string { return f.Package + "." + f.Funcs[i].Name }

// A Status is the static check's verdict on one variant.
type Status struct {
	// Checked is false for a variant no generator recorded: Go code (the
	// generic reference, compositions, external references) or assembly
	// whose generator does not run the check.
	Checked bool
	// File and Funcs are where the variant's functions are.
	File  *File
	Funcs []*Func
}

// Findings counts the findings of the variant's functions.
func (s Status) Findings() int {
	n := 0
	for _, f := range s.Funcs {
		n += len(f.Findings)
	}
	return n
}

// Kinds lists the kinds of the variant's findings, sorted and distinct.
func (s Status) Kinds() []string {
	var out []string
	for _, f := range s.Funcs {
		for _, x := range f.Findings {
			out = append(out, x.Kind)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// String is the status in a few words: "ok", "2 findings (address,
// branch)" or "unchecked".
func (s Status) String() string {
	switch n := s.Findings(); {
	case !s.Checked:
		return "unchecked"
	case n == 0:
		return "ok"
	case n == 1:
		return "1 finding (" + strings.Join(s.Kinds(), ",") + ")"
	default:
		return fmt.Sprintf("%d findings (%s)", n, strings.Join(s.Kinds(), ","))
	}
}

// PublicOnly reports whether every function of the variant has public
// parameters only (false for an unchecked variant).
func (s Status) PublicOnly() bool {
	if !s.Checked || len(s.Funcs) == 0 {
		return false
	}
	for _, f := range s.Funcs {
		if !f.PublicOnly {
			return false
		}
	}
	return true
}

// ByDesign returns the reasons, distinct, of the variant's declassified
// instructions: what its timing may reveal by design.
func (s Status) ByDesign() []string {
	var out []string
	for _, f := range s.Funcs {
		for _, d := range f.Declassified {
			if !slices.Contains(out, d.Why) {
				out = append(out, d.Why)
			}
		}
	}
	return out
}

// Lookup returns the static status of variant name of kernel.
func Lookup(kernel, name string) Status {
	for _, f := range Files() {
		for _, v := range f.Variants {
			if v.Kernel != kernel || v.Name != name {
				continue
			}
			s := Status{Checked: true, File: f}
			for _, i := range v.Funcs {
				s.Funcs = append(s.Funcs, &f.Funcs[i])
			}
			return s
		}
	}
	return Status{}
}
