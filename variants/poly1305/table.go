package main

import (
	"bytes"
	"flag"
	"fmt"
	"go/format"
	"os"

	"github.com/mmcloughlin/avo/printer"

	"github.com/tunelab/tunelab/variants/internal/asmstat"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// writeTable writes the Go table of generated variants that
// kernels/poly1305 registers, with code sizes estimated from the
// instruction count of each function in the written assembly.
func writeTable(path string, specs []spec) error {
	counts, err := asmstat.InstructionCounts(flag.Lookup("out").Value.String())
	if err != nil {
		return err
	}
	derived, err := isafeat.Derive()
	if err != nil {
		return err
	}
	var b bytes.Buffer
	cfg := printer.NewGoRunConfig()
	fmt.Fprintf(&b, "// %s\n\n//go:build !purego\n\npackage %s\n\n", cfg.GeneratedWarning(), pkgName())
	b.WriteString("// asmVariants lists the generated variants in generation order; the\n")
	b.WriteString("// index of each is its id for callScalar and callVector.\n")
	b.WriteString("var asmVariants = []asmVariant{\n")
	shs := shapes(specs)
	for i := range specs {
		s := &specs[i]
		// The symbol is the function a sweep measures: Sum runs a scalar
		// variant's one-shot function, a vector variant's block function.
		sym := s.fn()
		if s.isa == "scalar" {
			sym = s.sumFn()
		}
		fmt.Fprintf(&b, "{name: %q, symbol: %q, loop: \"loop\", codeBytes: %d,\n",
			s.name(), pkgPath+"."+sym, 5*counts[sym])
		feats, err := derived.Features(s.name(), isafeat.Allowed(s.isa), executed(specs, s)...)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "features: %#v, sweep: %v,\n", feats, s.sweep)
		if s.isa == "scalar" {
			b.WriteString("vector: false},\n")
			continue
		}
		fmt.Fprintf(&b, "vector: true, radix: %d, lanes: %d, unroll: %d, order: %#v, shape: %d, powWords: %d, compact: %v, tailVector: %v},\n",
			s.radix, s.lanes, s.unroll(), s.order, shapeIndex(shs, s.shape()), s.shape().words(), s.pow == "reg", s.tail == "vector")
	}
	b.WriteString("}\n\n")
	scalar := func(s *spec) bool { return s.isa == "scalar" }
	plain := func(s *spec) bool { return s.isa != "scalar" && s.tail != "vector" }
	masked := func(s *spec) bool { return s.tail == "vector" }
	blocksFn := func(s *spec) string { return s.fn() }
	writeSwitch(&b, specs, "callScalar", "h *[3]uint64, r *[2]uint64, m []byte, hibit uint64", "h, r, m, hibit", scalar, blocksFn)
	writeSwitch(&b, specs, "callVector", "h *[3]uint64, pw *uint64, m []byte", "h, pw, m", plain, blocksFn)
	writeSwitch(&b, specs, "callVectorMasked", "h *[3]uint64, pw *uint64, m []byte, pad int, fm *[8]uint16",
		"h, pw, m, pad, fm", masked, blocksFn)
	writeSwitch(&b, specs, "callSum", "out *[16]byte, m []byte, key *[32]byte", "out, m, key", scalar,
		func(s *spec) string { return s.sumFn() })
	writeFills(&b, shs)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return fmt.Errorf("formatting variant table: %w", err)
	}
	return os.WriteFile(path, src, 0o644)
}

// executed lists the generated functions variant s runs: a scalar
// variant's block and one-shot functions; a vector variant's block
// function and the scalar blocks of variant 0, which finish what is left
// after the last full vector iteration.
func executed(specs []spec, s *spec) []string {
	if s.isa == "scalar" {
		return []string{s.fn(), s.sumFn()}
	}
	return []string{s.fn(), specs[0].fn()}
}

// writeSwitch writes a function calling the function fn(spec) of every
// variant that keep accepts, by id: calls through func values would make
// their pointer arguments escape to the heap.
func writeSwitch(b *bytes.Buffer, specs []spec, name, params, args string, keep func(*spec) bool, fn func(*spec) string) {
	fmt.Fprintf(b, "// %s calls the generated function of variant id.\n", name)
	fmt.Fprintf(b, "func %s(id int, %s) {\nswitch id {\n", name, params)
	for i := range specs {
		if keep(&specs[i]) {
			fmt.Fprintf(b, "case %d:\n%s(%s)\n", i, fn(&specs[i]), args)
		}
	}
	b.WriteString("default:\npanic(\"poly1305: bad variant id\")\n}\n}\n\n")
}

func shapeIndex(shs []shape, sh shape) int {
	for i := range shs {
		if shs[i] == sh {
			return i
		}
	}
	panic("unknown shape")
}

func pkgName() string {
	if f := flag.Lookup("pkg"); f != nil && f.Value.String() != "" {
		return f.Value.String()
	}
	return "poly1305"
}
