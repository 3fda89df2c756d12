package ct_test

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// publicDivisions are the Go functions of the whole operations allowed a
// division instruction, each on public values only, with the reason. None
// needs one now: ExpandA and ExpandS loop by row and column, the lab's
// verifiers divide by constants only.
var publicDivisions = map[string]string{}

// TestNoSecretDivisionInOperations builds the tunelab binary (go test's
// own binaries carry no symbol table), disassembles its Go code of
// kernels/mlkem and kernels/mldsa (go tool objdump decodes the
// general-purpose instructions of Go code) and requires that
// no function other than those of publicDivisions contains DIV or IDIV:
// the compiler turns division by a constant (x % Q) into multiplication,
// and a division by a variable on secret data would be KyberSlash.
func TestNoSecretDivisionInOperations(t *testing.T) {
	if testing.Short() {
		t.Skip("disassembles the test binary")
	}
	exe := filepath.Join(t.TempDir(), "tunelab")
	if out, err := exec.Command("go", "build", "-o", exe, "github.com/tunelab/tunelab/cmd/tunelab").CombinedOutput(); err != nil {
		t.Skipf("building tunelab to disassemble: %v: %s", err, out)
	}
	out, err := exec.Command("go", "tool", "objdump", "-s", `kernels/(mlkem|mldsa)\.`, exe).Output()
	if err != nil {
		t.Fatalf("go tool objdump: %v", err)
	}
	text := regexp.MustCompile(`^TEXT (\S+)\(SB\)`)
	div := regexp.MustCompile(`^\s+(\S+\.go):\d+\s.*\s(I?DIV[BWLQ]?)\s`)
	fn, funcs := "", 0
	for _, l := range strings.Split(string(out), "\n") {
		if m := text.FindStringSubmatch(l); m != nil {
			fn = m[1]
			funcs++
			continue
		}
		if m := div.FindStringSubmatch(l); m != nil {
			if _, ok := publicDivisions[fn]; !ok {
				t.Errorf("%s (%s) divides: %s", fn, m[1], strings.Join(strings.Fields(l), " "))
			}
		}
	}
	if funcs < 50 {
		t.Errorf("objdump found only %d functions of kernels/mlkem and kernels/mldsa", funcs)
	}
}
