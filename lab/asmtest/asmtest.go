// Package asmtest checks registered variants against the generated
// assembly they run, for the tests of every kernel family: the CPU
// features a variant declares must be exactly those avo derived from the
// instructions of every function it executes (the "// Requires:" lines of
// the generated file), so a hand-written or stale feature list fails a
// test on any host, not with SIGILL on a CPU that lacks the feature.
package asmtest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/avoisa"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Requires returns, per TEXT symbol of the Go assembly file at path (name
// without the leading "·"), the dispatch features of its "// Requires:"
// line; a function without one requires nothing beyond the baseline.
func Requires(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading requirements: %w", err)
	}
	defer f.Close()
	out := map[string][]string{}
	var pending []string
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if req, ok := strings.CutPrefix(line, "// Requires: "); ok {
			if pending, err = avoisa.ParseRequires(req); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n, err)
			}
			continue
		}
		if name, ok := strings.CutPrefix(line, "TEXT ·"); ok {
			name, _, _ = strings.Cut(name, "(")
			out[name], pending = pending, nil
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading requirements from %s: %w", path, err)
	}
	return out, nil
}

// LocalName returns the function name within its package of a linker
// symbol ("github.com/x/kernels/mldsa.ntt_avx2" -> "ntt_avx2").
func LocalName(symbol string) string {
	if i := strings.LastIndex(symbol, "/"); i >= 0 {
		symbol = symbol[i+1:]
	}
	if _, name, ok := strings.Cut(symbol, "."); ok {
		return name
	}
	return symbol
}

// labVariants is the import path prefix of the generated packages that
// hold the variants production does not link.
const labVariants = "github.com/tunelab/tunelab/lab/variants/"

// File returns the path, from the directory of the running test's
// package (under kernels/), of the generated assembly file named name
// that holds the function of symbol: name itself, or for a symbol of a
// package under lab/variants, the file of that name in that package.
func File(symbol, name string) string {
	dot := strings.LastIndex(symbol, ".")
	rest, ok := strings.CutPrefix(symbol[:max(dot, 0)], labVariants)
	if !ok {
		return name
	}
	root, err := moduleRoot()
	if err != nil {
		return name
	}
	return filepath.Join(root, "lab", "variants", filepath.FromSlash(rest), name)
}

// moduleRoot returns the directory holding go.mod above the working
// directory.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// Executes lists the functions (local names) a variant runs.
type Executes func(v *variant.Variant) []string

// OwnSymbol is the Executes of variants that run only their Symbol.
func OwnSymbol(v *variant.Variant) []string { return []string{LocalName(v.Symbol)} }

// CheckFeatures checks every registered assembly variant of the kernels:
// each function it executes is in the assembly file asm, and its Features
// are exactly the union of their requirements. It fails if no variant was
// checked.
//
// asm names the file in the test's package; a variant of a package under
// lab/variants is checked against the file of the same name there (File).
func CheckFeatures(t *testing.T, asm string, kernels []string, executes Executes) {
	t.Helper()
	reqs := map[string]map[string][]string{} // by path
	checked := 0
	for _, k := range kernels {
		for _, v := range variant.Variants(k) {
			if v.Symbol == "" || v.External {
				continue
			}
			path := File(v.Symbol, asm)
			req, ok := reqs[path]
			if !ok {
				var err error
				if req, err = Requires(path); err != nil {
					t.Fatal(err)
				}
				reqs[path] = req
			}
			checked++
			want, err := union(req, executes(v))
			if err != nil {
				t.Errorf("%s %s: %v", k, v.Name, err)
				continue
			}
			got := slices.Sorted(slices.Values(v.Features))
			if !slices.Equal(got, want) {
				t.Errorf("%s %s: declares features %v, its instructions require %v (avo, %s)", k, v.Name, got, want, path)
			}
		}
	}
	if checked == 0 {
		t.Fatalf("no assembly variant of %v checked", kernels)
	}
}

// Family returns the names of the registered kernels of a family.
func Family(name string) []string {
	var out []string
	for _, k := range variant.Kernels() {
		if k.Family == name {
			out = append(out, k.Name)
		}
	}
	return out
}

// union returns the sorted union of the requirements of fns.
func union(req map[string][]string, fns []string) ([]string, error) {
	var out []string
	for _, fn := range fns {
		r, ok := req[fn]
		if !ok {
			return nil, fmt.Errorf("executes %s, which the assembly file lacks", fn)
		}
		for _, f := range r {
			if !slices.Contains(out, f) {
				out = append(out, f)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// CheckProduction checks that production links every generated variant
// the compiled dispatch table (kernels/dispatch/ztable.go) names for the
// kernels: prod lists the names of each kernel's production table. A table
// exported since the production tables were generated fails here (run `go
// generate ./kernels/...`).
func CheckProduction(t *testing.T, prod map[string][]string) {
	t.Helper()
	tab := dispatch.Compiled()
	for kernel, names := range prod {
		for _, c := range tableChoices(tab, kernel) {
			if c == variant.GenericName || slices.Contains(names, c) {
				continue
			}
			if variant.Lookup(kernel, c) == nil {
				t.Errorf("%s: the dispatch table names %q, which is not registered", kernel, c)
				continue
			}
			t.Errorf("%s: the dispatch table names %q, which production does not link (regenerate: go generate ./kernels/...)", kernel, c)
		}
	}
}

// tableChoices lists the variants tab names for kernel.
func tableChoices(tab dispatch.Table, kernel string) []string {
	var out []string
	for _, e := range tab.Entries {
		if e.Kernel == kernel {
			for _, c := range e.Choices {
				out = append(out, c.Variant)
			}
		}
	}
	for _, d := range tab.Defaults {
		if d.Kernel == kernel {
			for _, c := range d.Choices {
				out = append(out, c.Variant)
			}
		}
	}
	return out
}
