package all_test

import (
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/all"
)

// TestKnownKernelsArePlanned checks dispatch's list of kernels (with
// which a typo'd TUNELAB_DISPATCH kernel is warned about in any binary)
// against the kernels every family plans.
func TestKnownKernelsArePlanned(t *testing.T) {
	var planned []string
	for _, kp := range dispatch.Plans() {
		planned = append(planned, kp.Kernel)
	}
	slices.Sort(planned)
	if known := dispatch.KnownKernels(); !slices.Equal(planned, known) {
		t.Errorf("kernels planned %q, dispatch knows %q: every planned kernel needs a default in the compiled table (tunelab export)", planned, known)
	}
}

const childEnv = "TUNELAB_ALL_TEST_CHILD"

// TestChild is a lab binary's start-up, run by TestLabOverrideApplies.
func TestChild(t *testing.T) {
	if os.Getenv(childEnv) == "" {
		t.Skip("run by TestLabOverrideApplies")
	}
	for _, kp := range dispatch.Plans() {
		if kp.Kernel == "poly1305" {
			t.Logf("poly1305 plan %+v", kp.Choices)
		}
	}
}

// TestLabOverrideApplies covers the false "ignored" warning the tunelab
// binary printed while it applied an override naming a lab variant: a
// lab binary's start-up says the override applies, and warns only about
// the one that does not.
func TestLabOverrideApplies(t *testing.T) {
	lab := "isa=avx2/radix=26/lanes=4/blocks=8/pow=mem/carry=seq/tail=scalar/align=none"
	v := variant.Lookup("poly1305", lab)
	if v == nil || !cpu.Has(v.Features...) {
		t.Skip("the lab variant is not built (purego) or not runnable here")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChild$", "-test.v")
	cmd.Env = append(os.Environ(), childEnv+"=1", cpu.EnvCPU+"=", dispatch.EnvDispatch+"=poly1305="+lab+",keccak.x4=isa=nope")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s\n%s", err, out, stderr.String())
	}
	e := stderr.String()
	if strings.Contains(e, `"poly1305=`+lab+`" ignored`) || !strings.Contains(e, `"poly1305=`+lab+`" applies`) {
		t.Errorf("stderr does not say the lab override applies, or says it is ignored:\n%s", e)
	}
	if strings.Count(e, `"keccak.x4=isa=nope" ignored`) != 1 {
		t.Errorf("stderr does not warn once about the unknown variant:\n%s", e)
	}
	if !strings.Contains(string(out), "poly1305 plan [{MaxSize:0 Variant:"+lab+" Reason:override}]") {
		t.Errorf("the override is not the plan:\n%s", out)
	}
}
