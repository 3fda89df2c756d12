package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// runCLI runs the CLI in-process and returns stdout, stderr and the exit code.
func runCLI(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := run(&out, &errb, args)
	code := exitCode(&errb, err)
	return out.String(), errb.String(), code
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading golden file (run with -update to create): %v", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run go test -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{}, {"no-such-command"}} {
		_, stderr, code := runCLI(t, args...)
		if code != 2 {
			t.Errorf("tunelab %v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

func TestHelpListsCommands(t *testing.T) {
	out, _, code := runCLI(t, "help")
	if code != 0 {
		t.Fatalf("tunelab help: exit %d", code)
	}
	for name, c := range commands {
		if !c.hidden && !bytes.Contains([]byte(out), []byte("  "+name)) {
			t.Errorf("help does not list %q", name)
		}
	}
}
