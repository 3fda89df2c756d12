package main

import (
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	out, stderr, code := runCLI(t, "compare", fixtures+"zen4.txt", fixtures+"spr.txt")
	if code != 0 {
		t.Fatalf("tunelab compare: exit %d, stderr %q", code, stderr)
	}
	golden(t, "compare_zen4_spr.golden", out)
	if !strings.Contains(out, "geomean") {
		t.Errorf("compare output has no geomean row")
	}
	for _, args := range [][]string{{"compare"}, {"compare", fixtures + "zen4.txt"}, {"compare", fixtures + "empty.txt", fixtures + "zen4.txt"}} {
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("tunelab %v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}
