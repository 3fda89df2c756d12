package align

import (
	"errors"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Synthetic kernels: tierKernel has offset-sweep bases per ISA tier (and
// an AVX2 variant with align siblings but no sweep); wideKernel has only
// an AVX-512 base.
const (
	tierKernel = "aligntest.tiers"
	wideKernel = "aligntest.wide"
	base512    = "isa=avx512vl/unroll=2"
	base256    = "isa=avx2/unroll=2"
	baseScalar = "isa=scalar/unroll=1"
)

var (
	avx512Features = []string{"avx512f", "avx512vl"}
	avx2Features   = []string{"avx2"}
)

func init() {
	variant.RegisterKernel(variant.Kernel{Name: tierKernel, Bench: "AlignTestTiers"})
	variant.RegisterKernel(variant.Kernel{Name: wideKernel, Bench: "AlignTestWide"})
	registerSweep(tierKernel, base512, avx512Features, "64", "64+4", "64+8", "none")
	registerSweep(tierKernel, "isa=avx2/unroll=4", avx2Features, "64", "none")
	registerSweep(tierKernel, base256, avx2Features, "64", "64+4", "64+8", "none")
	registerSweep(tierKernel, baseScalar, nil, "64", "64+4")
	registerSweep(wideKernel, base512, avx512Features, "64", "64+4")
}

// registerSweep registers base's siblings with the given align knobs;
// align=64+N ones are offset-sweep variants.
func registerSweep(kernel, base string, features []string, knobs ...string) {
	for _, k := range knobs {
		variant.Register(variant.Variant{Kernel: kernel, Name: base + "/align=" + k, Features: features,
			OffsetSweep: strings.HasPrefix(k, "64+")})
	}
}

// tierCPU returns a synthetic CPU with the features of one tier.
func tierCPU(t *testing.T, tier string) *cpu.CPU {
	t.Helper()
	level, extra := map[string]string{"x86-64-v1": cpu.LevelV1, "x86-64-v2": cpu.LevelV2,
		"avx2": cpu.LevelV3, "avx512": cpu.LevelV4}[tier], []string(nil)
	if tier == "avx512" {
		extra = []string{}
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

func TestBasesAreTheOffsetSweeps(t *testing.T) {
	var got []string
	for _, b := range Bases(tierKernel) {
		got = append(got, b.Name+" ["+strings.Join(b.Features, ",")+"]")
	}
	want := []string{base512 + " [avx512f,avx512vl]", base256 + " [avx2]", baseScalar + " []"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("Bases(%s) = %q, want %q (offset-sweep bases only, registration order)", tierKernel, got, want)
	}
}

func TestChooseBasePrefersWidestRunnable(t *testing.T) {
	for tier, want := range map[string]string{"avx512": base512, "avx2": base256, "x86-64-v2": baseScalar, "x86-64-v1": baseScalar} {
		b, err := chooseBase(tierKernel, Bases(tierKernel), tierCPU(t, tier), nil)
		if err != nil || b.Name != want {
			t.Errorf("%s host: chose %q (%v), want %q", tier, b.Name, err, want)
		}
	}
}

func TestChooseBaseFollowsDispatch(t *testing.T) {
	target := tierCPU(t, "avx512")
	for dispatched, want := range map[string]string{
		base256 + "/align=64":          base256,    // a base itself
		"isa=avx2/unroll=4/align=none": base256,    // no sweep: a base of its width
		baseScalar + "/align=64+4":     baseScalar, // an offset-sweep copy
		"isa=generic":                  baseScalar, // Go code: the scalar tier
		base512 + "/align=none":        base512,
	} {
		v := variant.Lookup(tierKernel, dispatched)
		if v == nil {
			v = &variant.Variant{Kernel: tierKernel, Name: dispatched}
			if strings.HasPrefix(dispatched, "isa=avx2") {
				v.Features = avx2Features
			}
		}
		b, err := chooseBase(tierKernel, Bases(tierKernel), target, v)
		if err != nil || b.Name != want {
			t.Errorf("dispatch selects %s: chose %q (%v), want %q", dispatched, b.Name, err, want)
		}
	}
	unrunnable := &variant.Variant{Name: base512 + "/align=64", Features: avx512Features}
	if b, _ := chooseBase(tierKernel, Bases(tierKernel), tierCPU(t, "avx2"), unrunnable); b.Name != base256 {
		t.Errorf("avx2 host, dispatch naming an AVX-512 variant: chose %q, want the widest runnable %q", b.Name, base256)
	}
}

func TestDefaultBaseNoneRunnable(t *testing.T) {
	withHost(t, tierCPU(t, "avx2"))
	_, err := DefaultBase(wideKernel, 0)
	var ue *UnrunnableError
	if !errors.As(err, &ue) {
		t.Fatalf("DefaultBase(%s) on an AVX2 host = %v, want an *UnrunnableError", wideKernel, err)
	}
	want := wideKernel + ": no offset-sweep base runs on this host: " + base512 + " needs avx512f,avx512vl, which this host lacks"
	if err.Error() != want {
		t.Errorf("error %q,\nwant  %q", err, want)
	}
}

func TestNewSetNamedUnrunnableNamesAlternative(t *testing.T) {
	withHost(t, tierCPU(t, "avx2"))
	for _, name := range []string{base512, base512 + "/align=64+4"} {
		_, err := NewSet(tierKernel, name, []int{0, 4}, 0)
		var ue *UnrunnableError
		want := tierKernel + " " + base512 + " needs avx512f,avx512vl, which this host lacks; runnable base: " + base256
		if !errors.As(err, &ue) || err.Error() != want {
			t.Errorf("NewSet(%q) on an AVX2 host = %v;\nwant %q", name, err, want)
		}
	}
	withHost(t, tierCPU(t, "x86-64-v2"))
	_, err := NewSet(tierKernel, base256, []int{0}, 0)
	if err == nil || !strings.HasSuffix(err.Error(), base256+" needs avx2, which this host lacks; runnable base: "+baseScalar) {
		t.Errorf("NewSet(%q) on an x86-64-v2 host = %v; want it to need avx2 and name %s", base256, err, baseScalar)
	}
}

func TestNewSetNamedNoAlternative(t *testing.T) {
	withHost(t, tierCPU(t, "avx2"))
	_, err := NewSet(wideKernel, base512, []int{0}, 0)
	want := wideKernel + " " + base512 + " needs avx512f,avx512vl, which this host lacks; no offset-sweep base of " + wideKernel + " runs here"
	if err == nil || err.Error() != want {
		t.Errorf("NewSet(%s, %q) on an AVX2 host = %v;\nwant %q", wideKernel, base512, err, want)
	}
}

func TestNewSetMaskedSaysSo(t *testing.T) {
	target := tierCPU(t, "avx512")
	target.Mask("avx512f=off")
	withHost(t, target)
	_, err := NewSet(tierKernel, base512, []int{0}, 0)
	if err == nil || !strings.Contains(err.Error(), "lacks or TUNELAB_CPU masks; runnable base: "+base256) {
		t.Errorf("NewSet(%q) with avx512f masked = %v; want the mask mentioned and %s named", base512, err, base256)
	}
}

func TestNewSetDefaultPerTier(t *testing.T) {
	for tier, want := range map[string]string{"avx512": base512, "avx2": base256, "x86-64-v2": baseScalar, "x86-64-v1": baseScalar} {
		withHost(t, tierCPU(t, tier))
		s, err := NewSet(tierKernel, "", []int{0, 4}, 0)
		if err != nil || s.Base != want || len(s.Arms) < 2 || s.Arms[1].Align != "64+4" {
			t.Errorf("%s host: NewSet default = %+v, %v; want base %s, align=64 and 64+4", tier, s, err, want)
		}
	}
}

// TestDefaultBaseRunsOnEveryTier checks, on the registered kernels and
// whatever offset-sweep bases they have, that the chosen base runs on the
// tier and no runnable base is wider, and that an error names every base.
func TestDefaultBaseRunsOnEveryTier(t *testing.T) {
	for _, k := range variant.Kernels() {
		bases := Bases(k.Name)
		if len(bases) == 0 {
			continue
		}
		for _, tier := range []string{"x86-64-v1", "x86-64-v2", "avx2", "avx512"} {
			target := tierCPU(t, tier)
			b, err := chooseBase(k.Name, bases, target, nil)
			if err != nil {
				checkNoneRunnable(t, k.Name, tier, bases, target, err)
				continue
			}
			if miss := target.Missing(b.Features...); len(miss) > 0 {
				t.Errorf("%s on %s: chose %s, which needs %v", k.Name, tier, b.Name, miss)
			}
			for _, o := range bases {
				if target.Has(o.Features...) && variant.TierWidth(o.Features) > variant.TierWidth(b.Features) {
					t.Errorf("%s on %s: chose %s (%d bits) over runnable %s (%d bits)", k.Name, tier, b.Name, variant.TierWidth(b.Features), o.Name, variant.TierWidth(o.Features))
				}
			}
		}
	}
}

// checkNoneRunnable checks the error chooseBase returned on tier.
func checkNoneRunnable(t *testing.T, kernel, tier string, bases []Base, target *cpu.CPU, err error) {
	t.Helper()
	var ue *UnrunnableError
	if !errors.As(err, &ue) || len(ue.Lacking) != len(bases) {
		t.Errorf("%s on %s: %v; want an *UnrunnableError listing all %d bases", kernel, tier, err, len(bases))
	}
	for _, b := range bases {
		if target.Has(b.Features...) {
			t.Errorf("%s on %s: error %v, but %s runs there", kernel, tier, err, b.Name)
		}
	}
}
