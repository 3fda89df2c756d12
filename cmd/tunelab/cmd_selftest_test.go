package main

import (
	"strings"
	"testing"
)

func TestSelftestSmall(t *testing.T) {
	needCalibAsm(t)
	out, stderr, code := runCLI(t, "selftest", "--reps", "2", "--budget", "300ms", "--sample-time", "500us", "--seed", "9")
	if code != 0 {
		t.Fatalf("selftest: exit %d:\n%s%s", code, out, stderr)
	}
	for _, want := range []string{"A/A eps=0", "planted eps=1%", "planted eps=2%", "planted eps=5%",
		"A/A false-positive rate:", "detection at eps=2% (threshold 1%):", "time/verdict"} {
		if !strings.Contains(out, want) {
			t.Errorf("selftest output lacks %q:\n%s", want, out)
		}
	}
}

func TestSelftestUsage(t *testing.T) {
	if _, _, code := runCLI(t, "selftest", "--reps", "0"); code != 2 {
		t.Errorf("selftest --reps 0: exit %d, want 2", code)
	}
}
