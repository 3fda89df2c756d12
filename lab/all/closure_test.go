package all_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// publicFamilies returns the packages production programs import,
// derived from the code: every package under kernels/ outside an
// internal/ directory that declares func RegisterVariants() (a family,
// as variants/all finds them for zfamilies.go) or imports one
// (kernels/mlkem/mlkemtest), as paths under kernels/.
func publicFamilies(t *testing.T) []string {
	t.Helper()
	const mod = "github.com/tunelab/tunelab/kernels/"
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}}|{{.Dir}}|{{join .GoFiles \",\"}}|{{join .Imports \",\"}}", "../../kernels/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	type pkg struct{ path, dir, files, imports string }
	var pkgs []pkg
	families := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "|")
		if len(f) != 4 || strings.Contains(f[0], "/internal/") || strings.HasSuffix(f[0], "/internal") {
			continue
		}
		p := pkg{f[0], f[1], f[2], f[3]}
		pkgs = append(pkgs, p)
		if declaresRegisterVariants(t, p.dir, strings.Split(p.files, ",")) {
			families[p.path] = true
		}
	}
	var public []string
	for _, p := range pkgs {
		imports := strings.Split(p.imports, ",")
		if families[p.path] || slices.ContainsFunc(imports, func(i string) bool { return families[i] }) {
			public = append(public, strings.TrimPrefix(p.path, mod))
		}
	}
	if len(families) == 0 {
		t.Fatal("found no family under kernels/")
	}
	return public
}

// declaresRegisterVariants reports whether one of files in dir declares
// a top-level func RegisterVariants().
func declaresRegisterVariants(t *testing.T, dir string, files []string) bool {
	t.Helper()
	for _, name := range files {
		if name == "" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Recv == nil && fn.Name.Name == "RegisterVariants" {
				return true
			}
		}
	}
	return false
}

// TestPublicFamilies checks the derivation: the families production
// programs import today.
func TestPublicFamilies(t *testing.T) {
	got := publicFamilies(t)
	for _, want := range []string{"keccak", "sha3", "mlkem", "mlkem/mlkemtest", "mldsa", "poly1305", "aesecb"} {
		if !slices.Contains(got, want) {
			t.Errorf("public families %q lack %s", got, want)
		}
	}
	for _, infra := range []string{"cpu", "dispatch", "variant"} {
		if slices.Contains(got, infra) {
			t.Errorf("public families %q include %s, which declares no RegisterVariants and imports no family", got, infra)
		}
	}
}

// TestKernelsShip checks that every Go package under kernels/ is in the
// dependency closure of the public family packages, built without test or
// lab tags: a path under kernels/ says that the package ships. Lab
// packages live under lab/, and what both use under internal/.
func TestKernelsShip(t *testing.T) {
	const mod = "github.com/tunelab/tunelab/kernels/"
	all := goList(t, "../../kernels/...")
	args := []string{"-deps"}
	for _, f := range publicFamilies(t) {
		args = append(args, mod+f)
	}
	closure := goList(t, args...)
	for _, p := range all {
		if !slices.Contains(closure, p) {
			t.Errorf("package %s is under kernels/ but outside the public families' closure: move it to lab/ (or to internal/, if kernels use it too)", strings.TrimPrefix(p, mod))
		}
	}
	if len(all) == 0 || len(closure) == 0 {
		t.Errorf("go list found %d packages under kernels/ and %d in the closure", len(all), len(closure))
	}
}

// goList returns the sorted import paths `go list` prints for args.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	if err != nil {
		t.Skipf("go list %v: %v", args, err)
	}
	ps := strings.Fields(string(out))
	slices.Sort(ps)
	return ps
}

// TestInternalImportsNoKernels checks that no package under internal/
// imports one under kernels/: internal/ holds the libraries below the
// families.
func TestInternalImportsNoKernels(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \" \"}}", "../../internal/...").Output()
	if err != nil {
		t.Skipf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		for _, imp := range f[1:] {
			if strings.HasPrefix(imp, "github.com/tunelab/tunelab/kernels/") {
				t.Errorf("%s imports %s", f[0], imp)
			}
		}
	}
}
