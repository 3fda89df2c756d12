package main

import (
	"strings"
	"testing"
)

func TestVerifyCalib(t *testing.T) {
	needCalibAsm(t)
	out, stderr, code := runCLI(t, "verify", "--kernel", "calib")
	if code != 0 {
		t.Fatalf("verify --kernel calib: exit %d:\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "5 variant/size pairs match") || strings.Count(out, "ok   calib ") != 5 {
		t.Errorf("verify output:\n%s", out)
	}
}

// TestVerifyMismatchExits1 runs verify in a subprocess that registers a
// kernel with a wrong variant.
func TestVerifyMismatchExits1(t *testing.T) {
	cmd, out := tunelabProc(t, []string{testBadKernelEnv + "=1"}, "verify", "--kernel", "clitest.bad")
	if code := exitStatus(cmd.Wait()); code != 1 {
		t.Fatalf("verify of a wrong variant: exit %d, want 1:\n%s", code, out)
	}
	for _, want := range []string{"FAIL clitest.bad mode=wrong", "random #1", "index 3", "ok   clitest.bad isa=generic"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("verify output lacks %q:\n%s", want, out)
		}
	}
}

func TestVerifyUsage(t *testing.T) {
	if _, _, code := runCLI(t, "verify", "--variant", "["); code != 2 {
		t.Errorf("verify --variant '[': exit %d, want 2", code)
	}
}
