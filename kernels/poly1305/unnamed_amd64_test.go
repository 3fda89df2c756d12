//go:build !purego

package poly1305

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestUnnamedAVX512CPUs resolves the compiled table among the production
// variants on CPUs the table does not name: an AVX-512 CPU with IFMA runs
// an IFMA variant above 1 KiB (whatever else it lacks or has, and
// whatever its model number names), one without IFMA never does.
func TestUnnamedAVX512CPUs(t *testing.T) {
	level := func(l string, extra ...string) []string {
		c, err := cpu.LevelCPU(l, extra...)
		if err != nil {
			t.Fatal(err)
		}
		return c.FeatureList()
	}
	sprLike := level(cpu.LevelV4, "adx", "aes", "pclmulqdq", "sha", "avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512vnni",
		"avx512bitalg", "avx512vpopcntdq", "avx512bf16", "vaes", "vpclmulqdq", "gfni")
	cpus := []struct {
		name          string
		vendor        string
		family, model int
		features      []string
		ifma          bool
	}{
		{"Ice Lake-SP (IFMA, no BF16)", cpu.VendorIntel, 6, 0x6a, level(cpu.LevelV4, "adx", "aes", "pclmulqdq", "avx512vbmi", "avx512vbmi2",
			"avx512ifma", "avx512vnni", "avx512bitalg", "avx512vpopcntdq", "vaes", "vpclmulqdq", "gfni"), true},
		{"Zen 4 Raphael", cpu.VendorAMD, 0x19, 0x61, sprLike, true},
		{"VM: Rocket Lake model number, Sapphire Rapids features", cpu.VendorIntel, 6, 0xa7, sprLike, true},
		{"IFMA with no other extension", cpu.VendorIntel, 6, 0x7e, level(cpu.LevelV4, "avx512ifma"), true},
		{"Skylake-X (no IFMA)", cpu.VendorIntel, 6, 0x55, level(cpu.LevelV4, "adx", "aes", "pclmulqdq"), false},
		{"VM: Emerald Rapids model number, AVX2 only", cpu.VendorIntel, 6, 0xcf, level(cpu.LevelV3, "adx", "aes", "pclmulqdq", "vaes"), false},
	}
	cands := variant.Candidates(prodVariants)
	for _, c := range cpus {
		host := &cpu.CPU{Arch: "amd64", Vendor: c.vendor, Family: c.family, Model: c.model}
		if err := host.SetFeatures(c.features...); err != nil {
			t.Fatal(err)
		}
		kp := dispatch.Resolve(host, dispatch.Compiled(), "", kernel, cands)
		for _, n := range []int{1025, 16 << 10, 1 << 20} {
			ch := kp.Choices[dispatch.ForSize(kp.Choices, n)]
			if got := strings.HasPrefix(ch.Variant, "isa=avx512ifma/"); got != c.ifma {
				t.Errorf("%s: %d bytes run %s (%s; %s), want IFMA %v", c.name, n, ch.Variant, ch.Reason, kp.Table, c.ifma)
			}
		}
	}
}
