package dispatch

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// The test kernels that tests plan and override are known kernels.
func init() { extraKnownKernels = append(extraKnownKernels, "test.k", "test.j") }

// Feature sets of synthetic CPUs by level, and this project's AVX-512 host.
var (
	v2Features = levelFeatures(cpu.LevelV2)
	v3Features = levelFeatures(cpu.LevelV3)
	v4Features = levelFeatures(cpu.LevelV4)
	zen4Extras = []string{"adx", "aes", "pclmulqdq", "sha", "avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512vnni", "avx512bitalg", "avx512vpopcntdq", "avx512bf16", "vaes", "vpclmulqdq", "gfni"}
	zen4All    = append(append([]string{}, v4Features...), zen4Extras...)
	haswellAll = append(append([]string{}, v3Features...), "aes", "pclmulqdq")
)

// levelFeatures returns the features of a feature level, canonical order.
func levelFeatures(level string) []string {
	c, err := cpu.LevelCPU(level)
	if err != nil {
		panic(err)
	}
	return c.FeatureList()
}

// maskedFeatures returns features with mask (TUNELAB_CPU syntax) applied, in
// canonical order.
func maskedFeatures(features []string, mask string) []string {
	c := &cpu.CPU{Arch: "amd64"}
	if err := c.SetFeatures(features...); err != nil {
		panic(err)
	}
	if w := c.Mask(mask); len(w) > 0 {
		panic(w[0])
	}
	return c.FeatureList()
}

// zen4Canonical is zen4All in canonical order.
func zen4Canonical() []string {
	known, _ := cpu.CanonicalFeatures(zen4All)
	return known
}

// synth returns a synthetic amd64 CPU with the given features.
func synth(t *testing.T, vendor string, family, model int, features []string) *cpu.CPU {
	t.Helper()
	c := &cpu.CPU{Arch: "amd64", Vendor: vendor, Family: family, Model: model}
	if err := c.SetFeatures(features...); err != nil {
		t.Fatal(err)
	}
	return c
}

func zen4(t *testing.T) *cpu.CPU { return synth(t, cpu.VendorAMD, 0x19, 0x11, zen4All) }
