package asmtest

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// BuildProgram builds the program in the package at dir (relative to the
// test's package, e.g. "./testdata/prodmain") for a test of what a
// production program links, and returns the binary's path. It skips the
// test in -short mode and without a go command.
func BuildProgram(t *testing.T, dir string) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds a program")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	bin := filepath.Join(t.TempDir(), filepath.Base(dir))
	if out, err := exec.Command(goTool, "build", "-o", bin, dir).CombinedOutput(); err != nil {
		t.Fatalf("building the production program %s: %v\n%s", dir, err, out)
	}
	return bin
}

// LinkedSymbols returns the symbols the binary at bin links, as go tool
// nm names them, without the ".abi0" suffix of assembly functions.
func LinkedSymbols(t *testing.T, bin string) []string {
	t.Helper()
	out, err := exec.Command("go", "tool", "nm", bin).Output()
	if err != nil {
		t.Fatalf("go tool nm: %v", err)
	}
	var syms []string
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) >= 3 {
			syms = append(syms, strings.TrimSuffix(f[len(f)-1], ".abi0"))
		}
	}
	return syms
}
