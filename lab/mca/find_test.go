//go:build unix

package mca

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTools writes, per name, an executable shell script into a fresh
// directory that prints version as `--version` would, and returns the
// directory.
func fakeTools(t *testing.T, versions map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, version := range versions {
		script := "#!/bin/sh\necho 'LLVM (http://llvm.org/):'\necho '  " + version + "'\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFindPicksNewestVersioned(t *testing.T) {
	a := fakeTools(t, map[string]string{"llvm-mca-18": "LLVM version 18.1.8", "llvm-mca-19": "LLVM version 19.1.7",
		"llvm-mca": "Debian LLVM version 14.0.6", "llvm-mca-19.txt": "not a tool"})
	b := fakeTools(t, map[string]string{"llvm-mca-21": "LLVM version 21.1.0", "llvm-mca-20": "LLVM version 20.1.2"})
	got, err := findIn(a + string(os.PathListSeparator) + b)
	if want := filepath.Join(b, "llvm-mca-21"); err != nil || got != want {
		t.Errorf("findIn = %q, %v; want %q (the newest versioned llvm-mca)", got, err, want)
	}
}

func TestFindUnversionedOnlyIfNewEnough(t *testing.T) {
	for _, c := range []struct {
		version string
		ok      bool
	}{
		{"Debian LLVM version 14.0.6", false},
		{"LLVM version 18.1.8", false},
		{"Ubuntu LLVM version 19.1.1", true},
		{"LLVM version 20.1.0git", true},
		{"garbage", false},
	} {
		dir := fakeTools(t, map[string]string{"llvm-mca": c.version, "llvm-mca-14": "LLVM version 14.0.6"})
		got, err := findIn(dir)
		switch {
		case c.ok && (err != nil || got != filepath.Join(dir, "llvm-mca")):
			t.Errorf("llvm-mca reporting %q: findIn = %q, %v; want it used", c.version, got, err)
		case !c.ok && err == nil:
			t.Errorf("llvm-mca reporting %q: findIn = %q; want an error (older than LLVM %d)", c.version, got, MinVersion)
		case !c.ok && !strings.Contains(err.Error(), "llvm-mca-14") || !c.ok && !strings.Contains(err.Error(), "apt-get install"):
			t.Errorf("llvm-mca reporting %q: error %q does not name the old tools and the fix", c.version, err)
		}
	}
}

func TestFindNoneSaysSo(t *testing.T) {
	_, err := findIn(t.TempDir() + string(os.PathListSeparator) + "relative/dir")
	if err == nil || !strings.Contains(err.Error(), "llvm-mca 19 or newer not found") {
		t.Errorf("findIn(empty dir) error = %v; want it to say llvm-mca 19 or newer was not found", err)
	}
}

func TestFindIgnoresRelativeDirs(t *testing.T) {
	dir := fakeTools(t, map[string]string{"llvm-mca-19": "LLVM version 19.1.7"})
	t.Chdir(dir)
	if got, err := findIn("."); err == nil {
		t.Errorf("findIn(\".\") = %q; want relative PATH entries ignored", got)
	}
}
