package aesecb

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
)

const childEnv = "AESECB_TEST_CHILD"

// TestUnderMasks reruns the public-API checks in a subprocess with CPU
// features masked by TUNELAB_CPU, and with a forced variant.
func TestUnderMasks(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("already the child")
	}
	forced := "isa=aesni/inflight=4/keys=mem/align=64"
	envs := []string{
		"TUNELAB_CPU=vaes=off",
		"TUNELAB_CPU=avx512f=off",
		"TUNELAB_CPU=all=off",
		"TUNELAB_DISPATCH=aes128.enc=" + forced,
		"TUNELAB_DISPATCH=aes256.dec=generic",
	}
	for _, env := range envs {
		cmd := exec.Command(os.Args[0], "-test.run=^(TestMaskedChild|TestAPIRoundTrip|TestAppendixC)$", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"="+env, env)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestMaskedChild") {
			t.Errorf("with %s: %v\n%s", env, err, out)
		}
	}
}

// TestMaskedChild runs in the subprocess: every planned variant must be
// runnable under the mask, masked features must not be used, and a forced
// variant must be honoured.
func TestMaskedChild(t *testing.T) {
	env := os.Getenv(childEnv)
	if env == "" {
		t.Skip("run by TestUnderMasks")
	}
	features := map[string][]string{}
	for _, k := range kernels {
		for _, im := range labImpls(k.name) {
			features[k.name+" "+im.Name] = im.Features
		}
	}
	for _, k := range kernels {
		for _, c := range k.plan() {
			fs := features[k.name+" "+c.Variant]
			if !cpu.Has(fs...) {
				t.Errorf("%s: %s planned %s, which needs %v", env, k.name, c.Variant, fs)
			}
			if env == "TUNELAB_CPU=all=off" && c.Variant != "isa=generic" {
				t.Errorf("%s: %s planned %s, want isa=generic", env, k.name, c.Variant)
			}
		}
	}
	if strings.HasPrefix(env, "TUNELAB_DISPATCH=") {
		kv := strings.TrimPrefix(env, "TUNELAB_DISPATCH=")
		name, want, _ := strings.Cut(kv, "=")
		if want == "generic" {
			want = "isa=generic"
		}
		k := kernelFor(map[string]int{"aes128.enc": 128, "aes256.dec": 256}[name], strings.HasSuffix(name, ".dec"))
		fs, exists := features[name+" "+want]
		if want == "isa=generic" || exists && cpu.Has(fs...) {
			if plan := k.plan(); len(plan) != 1 || plan[0].Variant != want {
				t.Errorf("%s: plan %v, want only %s", env, plan, want)
			}
		}
	}
	if strings.Contains(env, "all=off") && cpu.Has("aes") {
		t.Errorf("%s: cpu.Has(aes) is true", env)
	}
}
