package dispatch

import "github.com/klauspost/cpuid/v2"

// TEMPORARY minimal implementation so kernel packages compile while the
// dispatch package is being written; replaced by the real Plan and Has.

// Plan returns the dispatch plan for kernel among cands: never empty, every
// variant runnable on the host, falling back to variant.GenericName.
func Plan(kernel string, cands []Candidate) []Choice {
	return []Choice{{Variant: "isa=generic", Reason: "generic"}}
}

// Has reports whether the host (with masks applied) has every feature.
func Has(features ...string) bool {
	for _, f := range features {
		if !hasOne(f) {
			return false
		}
	}
	return true
}

func hasOne(f string) bool {
	m := map[string]cpuid.FeatureID{
		"avx2": cpuid.AVX2, "avx512f": cpuid.AVX512F, "avx512vl": cpuid.AVX512VL,
		"avx512bw": cpuid.AVX512BW, "avx512dq": cpuid.AVX512DQ, "avx512ifma": cpuid.AVX512IFMA,
		"avx512vbmi": cpuid.AVX512VBMI, "avx512vbmi2": cpuid.AVX512VBMI2, "vaes": cpuid.VAES,
		"vpclmulqdq": cpuid.VPCLMULQDQ, "aes": cpuid.AESNI, "pclmulqdq": cpuid.CLMUL,
		"bmi2": cpuid.BMI2, "adx": cpuid.ADX, "avx": cpuid.AVX, "sse41": cpuid.SSE4,
	}
	id, ok := m[f]
	return ok && cpuid.CPU.Supports(id)
}
