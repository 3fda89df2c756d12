package mlkem

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/nttfield"
	"github.com/tunelab/tunelab/kernels/variant"
)

const childEnv = "TUNELAB_NTT_API_CHILD"

// TestAPI checks the public functions (whatever variant dispatch chose)
// against the generic code.
func TestAPI(t *testing.T) {
	rng := nttfield.NewRand(99)
	for i := range 200 {
		var f, g, got, want [256]int16
		nttfield.Fill(rng, Q, &f)
		nttfield.Fill(rng, Q, &g)
		got, want = f, f
		NTT(&got)
		nttGeneric(&want)
		if j := nttfield.FirstDiff(&got, &want); j >= 0 {
			t.Fatalf("NTT, random #%d: coefficient %d = %d, want %d", i, j, got[j], want[j])
		}
		got, want = f, f
		InvNTT(&got)
		invNTTGeneric(&want)
		if j := nttfield.FirstDiff(&got, &want); j >= 0 {
			t.Fatalf("InvNTT, random #%d: coefficient %d = %d, want %d", i, j, got[j], want[j])
		}
		MulNTT(&got, &f, &g)
		mulNTTGeneric(&want, &f, &g)
		if j := nttfield.FirstDiff(&got, &want); j >= 0 {
			t.Fatalf("MulNTT, random #%d: coefficient %d = %d, want %d", i, j, got[j], want[j])
		}
	}
	for _, kp := range dispatch.Plans() {
		if !strings.HasPrefix(kp.Kernel, "mlkem.") {
			continue
		}
		for _, c := range kp.Choices {
			t.Logf("%s: dispatching to %s (%s)", kp.Kernel, c.Variant, c.Reason)
			v := variant.Lookup(kp.Kernel, c.Variant)
			if v == nil || !dispatch.Has(v.Features...) {
				t.Errorf("%s: dispatch chose %q, which is not a runnable variant here", kp.Kernel, c.Variant)
			}
		}
	}
}

// TestAPIUnderMasks reruns TestAPI in subprocesses with CPU features masked
// and with variants forced, so that every dispatch path of the public API
// is exercised on this host.
func TestAPIUnderMasks(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("in child")
	}
	envs := [][]string{{"TUNELAB_CPU=avx512f=off"}, {"TUNELAB_CPU=all=off"}}
	if len(asmNTT) > 0 {
		envs = append(envs,
			[]string{"TUNELAB_DISPATCH=" + forced(asmNTT[0].Name, asmInvNTT[0].Name, asmMulNTT[0].Name)},
			[]string{"TUNELAB_CPU=avx512f=off", "TUNELAB_DISPATCH=" + forced(lastNTT(), lastInvNTT(), asmMulNTT[len(asmMulNTT)-1].Name)})
	}
	for _, env := range envs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAPI$", "-test.count=1", "-test.v")
		cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestAPI") {
			t.Errorf("public API under %v: %v\n%s", env, err, out)
		}
	}
}

func forced(ntt, inv, mul string) string {
	return "mlkem.ntt=" + ntt + ",mlkem.invntt=" + inv + ",mlkem.mulntt=" + mul
}

func lastNTT() string {
	if len(asmNTT) == 0 {
		return variant.GenericName
	}
	return asmNTT[len(asmNTT)-1].Name
}

func lastInvNTT() string {
	if len(asmInvNTT) == 0 {
		return variant.GenericName
	}
	return asmInvNTT[len(asmInvNTT)-1].Name
}
