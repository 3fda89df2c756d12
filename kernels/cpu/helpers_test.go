package cpu

import "testing"

// Feature sets of synthetic CPUs by level, and this project's AVX-512 host.
var (
	v2Features = levelV2.Names()
	v3Features = levelV3.Names()
	v4Features = levels[0].need.Names()
	zen4Extras = []string{"adx", "aes", "pclmulqdq", "sha", "avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512vnni", "avx512bitalg", "avx512vpopcntdq", "avx512bf16", "vaes", "vpclmulqdq", "gfni"}
	zen4All    = append(append([]string{}, v4Features...), zen4Extras...)
	haswellAll = append(append([]string{}, v3Features...), "aes", "pclmulqdq")
)

// synth returns a synthetic amd64 CPU with the given features.
func synth(t *testing.T, vendor string, family, model int, features []string) *CPU {
	t.Helper()
	c := &CPU{Arch: "amd64", Vendor: vendor, Family: family, Model: model}
	if err := c.SetFeatures(features...); err != nil {
		t.Fatal(err)
	}
	return c
}

func zen4(t *testing.T) *CPU { return synth(t, VendorAMD, 0x19, 0x11, zen4All) }

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
