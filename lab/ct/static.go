package ct

import (
	"fmt"
	"sort"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A FileSummary counts the static check of one generated file.
type FileSummary struct {
	File                     *File
	Funcs, Instrs, Variants  int
	Findings, FuncsWithFinds int
	ByKind                   map[string]int
	// Declassified counts the instructions the generator declared public,
	// in FuncsDeclassified functions.
	Declassified, FuncsDeclassified int
	// Leaky are the variants that run a function with a finding.
	Leaky []Variant
}

func summarize(f *File) FileSummary {
	s := FileSummary{File: f, Funcs: len(f.Funcs), Variants: len(f.Variants), ByKind: map[string]int{}}
	for _, fn := range f.Funcs {
		s.Instrs += fn.Instrs
		if len(fn.Findings) > 0 {
			s.FuncsWithFinds++
		}
		if len(fn.Declassified) > 0 {
			s.FuncsDeclassified++
			s.Declassified += len(fn.Declassified)
		}
		for _, x := range fn.Findings {
			s.Findings++
			s.ByKind[x.Kind]++
		}
	}
	for _, v := range f.Variants {
		for _, i := range v.Funcs {
			if len(f.Funcs[i].Findings) > 0 {
				s.Leaky = append(s.Leaky, v)
				break
			}
		}
	}
	return s
}

// A Production is a variant the compiled dispatch table names (in an
// entry for some CPU or a default) and its static status.
type Production struct {
	Kernel, Variant string
	Status          Status
	// Go marks Go code (no generated function: the static check does not
	// apply); Unknown a name no registered variant has.
	Go, Unknown bool
}

// A StaticReport is `tunelab ct`'s static part.
type StaticReport struct {
	Files, Fixtures []FileSummary
	Production      []Production
	// Problems are what fails the gate: a production variant with a
	// finding or generated but unchecked, a function with a finding that
	// belongs to no variant.
	Problems []string
}

// Static reports the static check of every generated file against the
// dispatch table t (the compiled one in production).
func Static(t dispatch.Table) *StaticReport {
	r := &StaticReport{}
	for _, f := range Files() {
		s := summarize(f)
		if f.Fixture {
			r.Fixtures = append(r.Fixtures, s)
			continue
		}
		r.Files = append(r.Files, s)
		inVariant := map[int]bool{}
		for _, v := range f.Variants {
			for _, i := range v.Funcs {
				inVariant[i] = true
			}
		}
		for i, fn := range f.Funcs {
			if len(fn.Findings) > 0 && !inVariant[i] {
				r.Problems = append(r.Problems, fmt.Sprintf("%s: function %s has %d findings and belongs to no variant (production may call it)", f.Asm, fn.Name, len(fn.Findings)))
			}
		}
	}
	for _, p := range named(t) {
		v := variant.Lookup(p[0], p[1])
		pr := Production{Kernel: p[0], Variant: p[1], Status: Lookup(p[0], p[1])}
		switch {
		case pr.Status.Checked:
		case v == nil:
			pr.Unknown = true
		case v.Symbol == "":
			pr.Go = true
		}
		r.Production = append(r.Production, pr)
		switch {
		case pr.Status.Findings() > 0:
			r.Problems = append(r.Problems, fmt.Sprintf("the compiled dispatch table names %s %s, which has %s", p[0], p[1], pr.Status))
		case !pr.Status.Checked && !pr.Go && !pr.Unknown:
			r.Problems = append(r.Problems, fmt.Sprintf("the compiled dispatch table names %s %s, generated code the static check has not seen (its generator does not run it)", p[0], p[1]))
		}
	}
	return r
}

// named returns the (kernel, variant) pairs t names, sorted.
func named(t dispatch.Table) [][2]string {
	set := map[[2]string]bool{}
	for kernel, cs := range t.Choices() {
		for _, c := range cs {
			set[[2]string{kernel, c.Variant}] = true
		}
	}
	out := make([][2]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// Admit returns an error if variant name of kernel must not go into a
// dispatch table: it runs a function with a constant-time finding, or
// generated code the static check has not seen. Go code and names no
// generator recorded but no registered variant has either (another
// binary's) are admitted.
func Admit(kernel, name string) error {
	s := Lookup(kernel, name)
	if s.Findings() > 0 {
		f := s.first()
		return fmt.Errorf("%s %s has constant-time findings (%s; first %s:%d %s: %s)", kernel, name, s, s.File.Asm, f.Line, f.Instr, f.Why)
	}
	if !s.Checked {
		if v := variant.Lookup(kernel, name); v != nil && v.Symbol != "" {
			return fmt.Errorf("%s %s is generated code the constant-time check has not seen", kernel, name)
		}
	}
	return nil
}

func (s Status) first() Finding {
	for _, f := range s.Funcs {
		if len(f.Findings) > 0 {
			return f.Findings[0]
		}
	}
	return Finding{}
}
