package keccak

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
)

const childEnv = "TUNELAB_KECCAK_CHILD"

// TestPublicAPI checks Permute, PermuteX2, PermuteX4 and PermuteX8 against
// the generic code, and that every selected variant is runnable. Run in a
// subprocess by TestMaskedDispatch, it also checks the masks took effect.
func TestPublicAPI(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	var a1 [1][25]uint64
	var a2 [2][25]uint64
	var a4 [4][25]uint64
	var a8 [8][25]uint64
	apis := map[int]func(){
		1: func() { Permute(&a1[0]) }, 2: func() { PermuteX2(&a2) },
		4: func() { PermuteX4(&a4) }, 8: func() { PermuteX8(&a8) },
	}
	states := map[int][][25]uint64{1: a1[:], 2: a2[:], 4: a4[:], 8: a8[:]}
	for _, nr := range widths {
		m := byName(nr, selectedOf(nr))
		if m == nil || !cpu.Has(m.Features...) {
			t.Fatalf("%s: selected variant %q is not runnable here", kernelName(nr), selectedOf(nr))
		}
		for call := 0; call < 50; call++ {
			s := states[nr]
			randomStates(s, r)
			want := append([][25]uint64(nil), s...)
			generics[nr].run(want)
			apis[nr]()
			if err := compare(m, "public API, random call", s, want); err != nil {
				t.Fatalf("call %d: %v", call, err)
			}
		}
	}
	checkAbsorbAPI(t, r)
	checkChildEnv(t)
}

// checkAbsorbAPI checks that every size class of AbsorbBlocks' plan runs
// here and that AbsorbBlocks matches the generic loop at every sponge
// rate, for lengths in every size class.
func checkAbsorbAPI(t *testing.T, r *rand.Rand) {
	t.Helper()
	for i, c := range absorbPlan() {
		if miss := missingFeatures(c.features); len(miss) > 0 {
			t.Fatalf("AbsorbBlocks plan[%d] = %s is not runnable here: lacks %v", i, c.name, miss)
		}
	}
	for _, rate := range spongeRates {
		lo := 0 // the smallest size of the class
		for _, c := range absorbPlan() {
			n := lo + 3*rate + 1
			if c.maxSize != 0 {
				n, lo = min(n, c.maxSize), c.maxSize+1
			}
			got := randomState(r)
			want := got
			data := randomBytes(r, n)
			AbsorbBlocks(&got, data, rate)
			absorbGeneric(&want, data, rate)
			if err := compareLanes("AbsorbBlocks ("+planNames(absorbPlan())+")", fmt.Sprintf("%d bytes at rate %d", n, rate), &got, &want); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// checkChildEnv verifies, in a subprocess, that the environment given by
// TestMaskedDispatch was honoured.
func checkChildEnv(t *testing.T) {
	switch os.Getenv(childEnv) {
	case "avx512f=off":
		if cpu.Has("avx512f") {
			t.Errorf("TUNELAB_CPU=avx512f=off: cpu.Has(avx512f) is still true")
		}
		for _, nr := range widths {
			if strings.Contains(selectedOf(nr), "avx512") {
				t.Errorf("TUNELAB_CPU=avx512f=off: %s selected %s", kernelName(nr), selectedOf(nr))
			}
		}
		for _, c := range absorbPlan() {
			if strings.Contains(c.name, "avx512") {
				t.Errorf("TUNELAB_CPU=avx512f=off: AbsorbBlocks plans %s", planNames(absorbPlan()))
			}
		}
	case "all=off":
		for _, nr := range widths {
			if m := byName(nr, selectedOf(nr)); len(m.Features) > 0 {
				t.Errorf("TUNELAB_CPU=all=off: %s selected %s needing %v", kernelName(nr), m.Name, m.Features)
			}
		}
		for _, c := range absorbPlan() {
			if len(c.features) > 0 {
				t.Errorf("TUNELAB_CPU=all=off: AbsorbBlocks plans %s needing %v", c.name, c.features)
			}
		}
	case "force":
		// The variants named in the environment, not forcedVariants():
		// under user-mode emulation the child runs natively and may see
		// other CPU features than its parent.
		env := os.Getenv(dispatch.EnvDispatch)
		for _, kv := range strings.Split(env, ",") {
			kernel, want, _ := strings.Cut(kv, "=")
			for _, nr := range widths {
				if kernelName(nr) == kernel && selectedOf(nr) != want {
					t.Errorf("%s=%s: %s selected %s", dispatch.EnvDispatch, env, kernel, selectedOf(nr))
				}
			}
			if kernel == sha3Kernel && (len(absorbPlan()) != 1 || absorbPlan()[0].name != want) {
				t.Errorf("%s=%s: AbsorbBlocks plans %s", dispatch.EnvDispatch, env, planNames(absorbPlan()))
			}
		}
	}
}

// forced are variants TestMaskedDispatch forces through TUNELAB_DISPATCH,
// so that TestPublicAPI runs the public functions on assembly: per kernel,
// the first one the host can run (AVX-512, then AVX2 or scalar).
var forced = map[int][]string{
	1: {"isa=avx512vl/layout=lanes/rot=prol/chi=ternlog/regs=all/unroll=2/align=64",
		"isa=scalar/comp=off/unroll=2/align=64"},
	2: {"isa=avx2/rot=shiftor/chi=andnxor/regs=spill/unroll=2/xpose=unpack/align=64"},
	4: {"isa=avx2/rot=shiftor/chi=andnxor/regs=spill/unroll=2/xpose=unpack/align=64"},
	8: {"isa=avx512f/rot=prol/chi=ternlog/regs=all/unroll=2/xpose=unpack/align=64",
		"isa=avx2/rot=shiftor/chi=andnxor/regs=spill/group=seq/unroll=2/xpose=unpack/align=64"},
}

// forcedAbsorbs are the sha3.256 variants TestMaskedDispatch forces (the
// first the host can run), other than the keccak.x1 variants it forces,
// so that AbsorbBlocks runs a forced variant, not one that follows x1.
var forcedAbsorbs = []string{
	"isa=avx512f/layout=rows/rot=prolv/chi=ternlog/regs=all/unroll=2/align=64",
	"isa=scalar/comp=on/unroll=4/align=64",
}

// forcedVariants returns, per kernel, the first forced variant this host
// can run.
func forcedVariants() map[int]string {
	out := map[int]string{}
	for nr, names := range forced {
		for _, name := range names {
			if m := byName(nr, name); m != nil && len(missing(m)) == 0 {
				out[nr] = name
				break
			}
		}
	}
	return out
}

// forcedAbsorb returns the first forced sha3.256 variant this host can
// run, or "".
func forcedAbsorb() string {
	for _, name := range forcedAbsorbs {
		if m := findAbsorber(absorbers(), name); m != nil && len(missingFeatures(m.Features)) == 0 {
			return name
		}
	}
	return ""
}

func forceEnv() string {
	var parts []string
	for _, nr := range widths {
		if name, ok := forcedVariants()[nr]; ok {
			parts = append(parts, kernelName(nr)+"="+name)
		}
	}
	if name := forcedAbsorb(); name != "" {
		parts = append(parts, sha3Kernel+"="+name)
	}
	return strings.Join(parts, ",")
}

// TestMaskedDispatch runs TestPublicAPI in subprocesses with CPU features
// masked (TUNELAB_CPU) and with a forced variant (TUNELAB_DISPATCH).
func TestMaskedDispatch(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("in child process")
	}
	runs := []struct{ child, env string }{
		{"avx512f=off", "TUNELAB_CPU=avx512f=off"},
		{"all=off", "TUNELAB_CPU=all=off"},
	}
	if len(forcedVariants()) > 0 {
		runs = append(runs, struct{ child, env string }{"force", "TUNELAB_DISPATCH=" + forceEnv()})
	}
	for _, r := range runs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestPublicAPI$", "-test.count=1")
		cmd.Env = append(os.Environ(), childEnv+"="+r.child, r.env)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s: public API test failed: %v\n%s", r.env, err, out)
		}
	}
}
