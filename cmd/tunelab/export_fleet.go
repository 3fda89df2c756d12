package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/reports/export"
)

// legacyBaseFile is the fleet's legacy base: entries of CPUs whose result
// files the fleet does not hold, in the JSON export --format json writes.
const legacyBaseFile = "legacy-base.json"

// maxLegacyBaseBytes bounds the legacy base read.
const maxLegacyBaseBytes = 16 << 20

// fleetFiles returns the result files of the fleet folder: every *.txt
// and *.txt.gz, sorted by name. Other files given, or --base, are usage
// errors: the fleet's table is a function of the fleet alone.
func (f *exportFlags) fleetFiles(given []string) ([]string, error) {
	if len(given) > 0 || f.base != "" || len(f.assume) > 0 {
		return nil, usagef("export: --fleet takes no other result files, --base or --assume-features: the table is a function of the fleet's files")
	}
	entries, err := os.ReadDir(f.fleet)
	if err != nil {
		return nil, fmt.Errorf("export: reading the fleet: %w", err)
	}
	var files []string
	for _, e := range entries {
		if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".txt") || strings.HasSuffix(n, ".txt.gz")) {
			files = append(files, filepath.Join(f.fleet, n))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("export: the fleet %s holds no result files (*.txt, *.txt.gz)", f.fleet)
	}
	slices.Sort(files)
	return files, nil
}

// addFleetSources names the table's sources by their paths from the
// module root and adds the fleet's legacy base, if it has one.
func addFleetSources(e *env, t *export.Table, dir string) error {
	rel := moduleRelative(dir)
	t.NameSources(func(path string) string { return rel(path) })
	path := filepath.Join(dir, legacyBaseFile)
	if _, err := os.Stat(path); os.IsNotExist(err) {
		return nil
	}
	data, err := resultfile.ReadSmall(path, maxLegacyBaseBytes)
	if err != nil {
		return fmt.Errorf("export: reading the legacy base: %w", err)
	}
	base, err := export.ReadTable(path)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	sum := sha256.Sum256(data)
	for _, n := range t.AddLegacyBase(base, "sha256:"+hex.EncodeToString(sum[:])+" "+rel(path)+" (legacy base)") {
		fmt.Fprintln(e.stderr, "note:", n)
	}
	return nil
}

// moduleRelative returns a function giving a path's form relative to the
// root of the module that holds dir (the folder of the nearest go.mod),
// with forward slashes; paths outside it keep their base name.
func moduleRelative(dir string) func(string) string {
	root := ""
	if abs, err := filepath.Abs(dir); err == nil {
		for d := abs; ; d = filepath.Dir(d) {
			if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
				root = d
				break
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
	return func(path string) string {
		abs, err := filepath.Abs(path)
		if err == nil && root != "" {
			if r, err := filepath.Rel(root, abs); err == nil && !strings.HasPrefix(r, "..") {
				return filepath.ToSlash(r)
			}
		}
		return filepath.Base(path)
	}
}
