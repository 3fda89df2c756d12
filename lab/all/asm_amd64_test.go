//go:build !purego

package all_test

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/ct"
)

// handWrittenAsm are the assembly files under kernels/ no generator
// writes.
var handWrittenAsm = []string{"kernels/cpu/cpuid_amd64.s"}

// TestKernelsAssemblyIsProduction checks that the generated assembly
// under kernels/ holds only what production links: every function of
// each file (as its constant-time status lists them, which must be every
// TEXT symbol of the file) is run by no variant (a helper the family's
// Go code calls) or by a variant the compiled dispatch table names (for
// sha3.256's fused absorb functions, by the keccak.x1 variant whose
// permutation they copy). The other variants' functions are under
// lab/variants.
func TestKernelsAssemblyIsProduction(t *testing.T) {
	named := map[[2]string]bool{}
	for kernel, cs := range dispatch.Compiled().Choices() {
		for _, c := range cs {
			named[[2]string{kernel, c.Variant}] = true
		}
	}
	files := map[string]*ct.File{}
	for _, f := range ct.Files() {
		files[f.Asm] = f
	}
	for _, asm := range kernelsAsm(t) {
		if slices.Contains(handWrittenAsm, asm) {
			continue
		}
		f := files[asm]
		if f == nil {
			t.Errorf("%s: no constant-time status (lab/ct) lists its functions", asm)
			continue
		}
		var listed []string
		for _, fn := range f.Funcs {
			listed = append(listed, fn.Name)
		}
		if text := textSymbols(t, asm); !slices.Equal(text, listed) {
			t.Errorf("%s: TEXT symbols %q, its status lists %q (regenerate: go generate ./...)", asm, text, listed)
		}
		runBy := map[int][]string{} // function -> the variants running it
		prod := map[int]bool{}      // functions a named variant runs
		for _, v := range f.Variants {
			for _, i := range v.Funcs {
				runBy[i] = append(runBy[i], v.Kernel+" "+v.Name)
				prod[i] = prod[i] || named[[2]string{v.Kernel, v.Name}]
			}
		}
		for i, fn := range f.Funcs {
			if len(runBy[i]) > 0 && !prod[i] {
				t.Errorf("%s: %s runs only variants the compiled dispatch table does not name (%s): it belongs under lab/variants", asm, fn.Name, strings.Join(runBy[i], ", "))
			}
		}
	}
}

// TestLabVariantsResolve checks that every generated variant lab/all
// registered runs a function of the package its Symbol names: a package
// under lab/variants, or for a variant production links, its family's.
// (A lab-table row without a function that production does not know
// panics in RegisterVariants, before any test.)
func TestLabVariantsResolve(t *testing.T) {
	const mod = "github.com/tunelab/tunelab/"
	n := 0
	for _, k := range variant.Kernels() {
		for _, v := range variant.Variants(k.Name) {
			if v.Symbol == "" || v.External || !strings.HasPrefix(v.Symbol, mod) {
				continue
			}
			n++
			s := ct.Lookup(k.Name, v.Name)
			if !s.Checked {
				continue // not every generator runs the check (lab/calib's does)
			}
			if pkg := v.Symbol[:strings.LastIndex(v.Symbol, ".")]; s.File.Package != pkg {
				t.Errorf("%s %s: Symbol %s, its functions are in %s (%s)", k.Name, v.Name, v.Symbol, s.File.Package, s.File.Asm)
			}
		}
	}
	if n == 0 {
		t.Fatal("no generated variant registered")
	}
}

// kernelsAsm returns the assembly files under kernels/, relative to the
// module root.
func kernelsAsm(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir("../../kernels", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".s") {
			out = append(out, filepath.ToSlash(strings.TrimPrefix(path, "../../")))
		}
		return err
	})
	if err != nil || len(out) == 0 {
		t.Fatalf("listing kernels/*.s: %d files, %v", len(out), err)
	}
	return out
}

// textSymbols returns the TEXT symbols of the assembly file at asm
// (relative to the module root), in order, without the leading "·".
func textSymbols(t *testing.T, asm string) []string {
	t.Helper()
	f, err := os.Open(filepath.Join("../..", asm))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "TEXT ·"); ok {
			name, _, _ = strings.Cut(name, "(")
			out = append(out, name)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
