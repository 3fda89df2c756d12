package profiler

import (
	"errors"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/variants" // the lab tables mldsa.RegisterVariants takes
)

// tierKernel is a synthetic kernel with variants on every ISA tier.
const tierKernel = "profilertest.tiers"

func init() {
	variant.RegisterKernel(variant.Kernel{Name: tierKernel, Bench: "ProfilerTestTiers"})
	variant.Register(
		variant.Variant{Kernel: tierKernel, Name: "ext=ref", External: true},
		variant.Variant{Kernel: tierKernel, Name: "isa=sse/unroll=1", Features: []string{"sse41"}},
		variant.Variant{Kernel: tierKernel, Name: "isa=avx512/unroll=2/align=64+4", Features: []string{"avx512f"}, OffsetSweep: true},
		variant.Variant{Kernel: tierKernel, Name: "isa=avx2/unroll=1", Features: []string{"avx2"}},
		variant.Variant{Kernel: tierKernel, Name: "isa=avx2/unroll=2", Features: []string{"avx2"}},
		variant.Variant{Kernel: tierKernel, Name: "isa=avx512/unroll=1", Features: []string{"avx512f"}},
		variant.Variant{Kernel: tierKernel, Name: "isa=avx512/mul=ifma", Features: []string{"avx512f", "avx512ifma"}},
		variant.Variant{Kernel: tierKernel, Name: variant.GenericName},
	)
}

// tierCPU returns a synthetic CPU with the features of one tier.
func tierCPU(t *testing.T, tier string) *cpu.CPU {
	t.Helper()
	level, extra := map[string]string{"x86-64-v1": cpu.LevelV1, "x86-64-v2": cpu.LevelV2,
		"avx2": cpu.LevelV3, "avx512": cpu.LevelV4}[tier], []string(nil)
	if tier == "avx512" {
		extra = []string{"avx512ifma"}
	}
	c, err := cpu.LevelCPU(level, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// withHost makes the package see target as the host until the test ends.
func withHost(t *testing.T, target *cpu.CPU) {
	old := hostCPU
	hostCPU = func() *cpu.CPU { c := *target; return &c }
	t.Cleanup(func() { hostCPU = old })
}

func TestChoosePrefersWidestRunnable(t *testing.T) {
	for tier, want := range map[string]string{"avx512": "isa=avx512/unroll=1", "avx2": "isa=avx2/unroll=1",
		"x86-64-v2": "isa=sse/unroll=1", "x86-64-v1": variant.GenericName} {
		v, err := choose(tierKernel, variant.Variants(tierKernel), tierCPU(t, tier), "")
		if err != nil || v.Name != want {
			t.Errorf("%s host, no dispatch plan: chose %v (%v), want %s", tier, v, err, want)
		}
	}
}

func TestChooseFollowsRunnableDispatch(t *testing.T) {
	vs := variant.Variants(tierKernel)
	if v, _ := choose(tierKernel, vs, tierCPU(t, "avx512"), "isa=avx2/unroll=2"); v.Name != "isa=avx2/unroll=2" {
		t.Errorf("dispatch selects isa=avx2/unroll=2 on an AVX-512 host: chose %s", v.Name)
	}
	if v, _ := choose(tierKernel, vs, tierCPU(t, "avx2"), "isa=avx512/unroll=1"); v.Name != "isa=avx2/unroll=1" {
		t.Errorf("dispatch names an AVX-512 variant on an AVX2 host: chose %s, want the widest runnable", v.Name)
	}
}

func TestRunnableNamesAlternative(t *testing.T) {
	v := variant.Lookup(tierKernel, "isa=avx512/mul=ifma")
	for tier, want := range map[string]string{
		"avx2":      tierKernel + " isa=avx512/mul=ifma needs avx512f,avx512ifma, which this host lacks; runnable alternative: isa=avx2/unroll=1",
		"x86-64-v1": tierKernel + " isa=avx512/mul=ifma needs avx512f,avx512ifma, which this host lacks; runnable alternative: " + variant.GenericName,
	} {
		err := runnableOn(v, 0, tierCPU(t, tier))
		var ue *UnrunnableError
		if !errors.As(err, &ue) || err.Error() != want {
			t.Errorf("%s host: runnableOn = %v,\nwant %q", tier, err, want)
		}
	}
	masked := tierCPU(t, "avx512")
	masked.Mask("avx512ifma=off")
	if err := runnableOn(v, 0, masked); err == nil || !strings.Contains(err.Error(), "needs avx512ifma, which this host lacks or TUNELAB_CPU masks; runnable alternative: isa=avx512/unroll=1") {
		t.Errorf("avx512ifma masked: runnableOn = %v; want the mask mentioned and isa=avx512/unroll=1 named", err)
	}
	if err := runnableOn(v, 0, tierCPU(t, "avx512")); err != nil {
		t.Errorf("AVX-512 IFMA host: runnableOn = %v, want nil", err)
	}
}

func TestRecordRefusesUnrunnable(t *testing.T) {
	withHost(t, tierCPU(t, "avx2"))
	v := variant.Lookup(tierKernel, "isa=avx512/unroll=1")
	_, err := Record(Options{Variant: v})
	var ue *UnrunnableError
	if !errors.As(err, &ue) || ue.Alternative != "isa=avx2/unroll=1" {
		t.Errorf("Record of an AVX-512 variant on an AVX2 host = %v; want an *UnrunnableError naming isa=avx2/unroll=1", err)
	}
}

// TestDefaultRunsOnEveryTier checks that the variant Default picks for
// mldsa.mulntt (and the synthetic kernel) is one every tier runs.
func TestDefaultRunsOnEveryTier(t *testing.T) {
	mldsa.RegisterVariants() // the lab registers the kernels; production does not
	for _, kernel := range []string{"mldsa.mulntt", tierKernel} {
		for _, tier := range []string{"x86-64-v1", "x86-64-v2", "avx2", "avx512"} {
			target := tierCPU(t, tier)
			withHost(t, target)
			v, err := Default(kernel, 0)
			if err != nil {
				t.Errorf("%s on %s: %v", kernel, tier, err)
				continue
			}
			if miss := target.Missing(v.Features...); len(miss) > 0 {
				t.Errorf("%s on %s: Default picked %s, which needs %v", kernel, tier, v.Name, miss)
			}
		}
	}
}
