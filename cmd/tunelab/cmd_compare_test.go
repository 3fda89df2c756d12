package main

import (
	"regexp"
	"strings"
	"testing"
)

func TestCompare(t *testing.T) {
	out, stderr, code := runCLI(t, "compare", fixtures+"zen4.txt", fixtures+"spr.txt")
	if code != 0 {
		t.Fatalf("tunelab compare: exit %d, stderr %q", code, stderr)
	}
	golden(t, "compare_zen4_spr.golden", out)
	for _, want := range []string{"\nsec/op ", "\ntsc-cycles/op ", "\ngeomean "} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output lacks %q", want)
		}
	}
	for _, args := range [][]string{{"compare"}, {"compare", fixtures + "zen4.txt"}, {"compare", fixtures + "empty.txt", fixtures + "zen4.txt"}} {
		if _, stderr, code := runCLI(t, args...); code != 2 {
			t.Errorf("tunelab %v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

// TestComparePlainBenchmarkFiles compares x/perf's own benchstat test data,
// plain Go benchmark files without tunelab's host identity: one warning
// per file (an unknown host), none per line, and benchstat's verdicts
// (reports.TestCompareAgreesWithBenchstat checks every number).
func TestComparePlainBenchmarkFiles(t *testing.T) {
	dir := fixtures + "benchstat/"
	out, stderr, code := runCLI(t, "compare", dir+"old.txt", dir+"new.txt")
	if code != 0 {
		t.Fatalf("tunelab compare old.txt new.txt: exit %d, stderr %q", code, stderr)
	}
	warnings := strings.Split(strings.TrimSpace(stderr), "\n")
	if len(warnings) > 2 {
		t.Errorf("%d warning lines for two files, want at most one per file:\n%s", len(warnings), stderr)
	}
	perLine := regexp.MustCompile(`\.txt:\d+:`)
	for _, w := range warnings {
		if perLine.MatchString(w) {
			t.Errorf("per-line warning: %q", w)
		}
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^Encode/format=json\s+1\.718µ\s+± 1\.0%\s+1\.423µ\s+± 0\.7%\s+-17\.20%\s+\(p=0\.000 n=10\)$`),
		regexp.MustCompile(`(?m)^Encode/format=gob\s+3\.066µ\s+± 0\.3%\s+3\.070µ\s+± 2\.1%\s+~\s+\(p=0\.446 n=10\)$`),
		regexp.MustCompile(`(?m)^geomean\s+2\.295µ\s+2\.090µ\s+-8\.94%$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("compare output does not match %s:\n%s", want, out)
		}
	}
}
