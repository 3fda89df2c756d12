package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/digests.golden (from a -tags purego run)")

const golden = "testdata/digests.golden"

// TestGolden runs every check on whatever this build dispatches to and
// compares the digests with the generic code's, recorded in testdata.
func TestGolden(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, nil); err != nil {
		t.Fatalf("tiercheck: %v\nstderr:\n%s", err, stderr.String())
	}
	if *update {
		if err := os.WriteFile(filepath.FromSlash(golden), stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(filepath.FromSlash(golden))
	if err != nil {
		t.Fatal(err)
	}
	if got := stdout.String(); got != string(want) {
		t.Errorf("digests differ from %s (the generic code's):\n%s", golden, lineDiff(string(want), got))
	}
}

// TestFilter checks that a filtered run prints the same line for a
// function as the full run, since each function has its own input stream.
func TestFilter(t *testing.T) {
	want, err := os.ReadFile(filepath.FromSlash(golden))
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"-func", `^poly1305\.MAC$`}); err != nil {
		t.Fatalf("tiercheck -func: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[1], "poly1305.MAC ") {
		t.Fatalf("tiercheck -func '^poly1305\\.MAC$' printed:\n%s", stdout.String())
	}
	if !strings.Contains(string(want), lines[1]+"\n") {
		t.Errorf("filtered line %q is not in %s", lines[1], golden)
	}
}

// TestMaxSize checks that -maxsize leaves out the larger sizes, says so
// in the first line, and leaves each function's digest over the smaller
// sizes alone (its inputs come from its own stream, size by size).
func TestMaxSize(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"-maxsize", "64", "-func", `^poly1305\.Sum$`}); err != nil {
		t.Fatalf("tiercheck -maxsize 64: %v\n%s", err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 || lines[0] != "tiercheck seed=1 sizes=0,1,15,16,17,63,64" || !strings.Contains(lines[1], " 7 calls") {
		t.Errorf("tiercheck -maxsize 64 printed:\n%s", stdout.String())
	}
}

func TestListAndUsage(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"-list"}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(stdout.String(), "\n"); n != len(checks) {
		t.Errorf("-list printed %d names, want %d:\n%s", n, len(checks), stdout.String())
	}
	for _, args := range [][]string{{"-func", "nothing-matches"}, {"-func", "("}, {"extra"}} {
		if err := run(&stdout, &stderr, args); err == nil {
			t.Errorf("run(%q) succeeded, want an error", args)
		}
	}
}

// TestKernelsOnly checks -kernels: every exported family function and no
// whole operation, which the Bochs tiers leave out after a failed verify
// (.ci/bochs/tiercheck.sh).
func TestKernelsOnly(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(&stdout, &stderr, []string{"-list", "-kernels"}); err != nil {
		t.Fatal(err)
	}
	names := strings.Fields(stdout.String())
	for _, want := range []string{"keccak.Permute", "mlkem.NTT", "aesecb.Encrypter/128", "sha3.SHAKE256Many", "poly1305.MAC"} {
		if !slices.Contains(names, want) {
			t.Errorf("-kernels lists %q, want %s among them", names, want)
		}
	}
	ops := 0
	for _, c := range checks {
		if isOperation(c.name) {
			ops++
			if slices.Contains(names, c.name) {
				t.Errorf("-kernels lists the whole operation %s", c.name)
			}
		}
	}
	if ops != 18 || len(names) != len(checks)-ops {
		t.Errorf("%d operations of %d checks, -kernels lists %d; want the 18 operations left out", ops, len(checks), len(names))
	}
}

// lineDiff lists the lines of want and got that differ, by position.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			b.WriteString("- " + wl + "\n+ " + gl + "\n")
		}
	}
	return b.String()
}
