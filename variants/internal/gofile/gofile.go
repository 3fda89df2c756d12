// Package gofile writes the Go files the generators emit besides avo's
// (the variant tables, the constant-time status, lab/all's list of
// families): formatted as gofmt would leave them.
package gofile

import (
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"
)

// Write formats the Go source src and writes it to path; what names the
// kind of file in errors, e.g. "implementation table".
func Write(path string, src []byte, what string) error {
	out, err := format.Source(src)
	if err != nil {
		return fmt.Errorf("formatting %s %s: %w", what, path, err)
	}
	if err := os.WriteFile(path, out, 0o644); err != nil {
		return fmt.Errorf("writing %s: %w", what, err)
	}
	return nil
}

// ModuleRoot returns the directory holding go.mod above the working
// directory, and the module path it declares.
func ModuleRoot() (dir, module string, err error) {
	dir, err = os.Getwd()
	if err != nil {
		return "", "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for _, l := range strings.Split(string(data), "\n") {
				if m, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
					return dir, strings.TrimSpace(m), nil
				}
			}
			return "", "", fmt.Errorf("%s/go.mod declares no module", dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", fmt.Errorf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// ImportPath returns the import path of the package in directory dir
// (relative to the working directory), e.g.
// "github.com/tunelab/tunelab/lab/variants/keccak".
func ImportPath(dir string) (string, error) {
	root, mod, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return "", fmt.Errorf("directory %s is outside module %s", dir, mod)
	}
	if rel == "." {
		return mod, nil
	}
	return mod + "/" + filepath.ToSlash(rel), nil
}
