// Package avoisa maps the instruction-set extension names of avo's
// instruction database (what avo prints on a generated function's
// "// Requires:" line) to the CPU feature names of kernels/cpu.
//
// Generators use it to derive a variant's required features from its
// instructions; tests use it to check registered features against the
// generated assembly. Both sides read the same table, so a feature list can
// never be declared by hand.
package avoisa

import (
	"fmt"
	"slices"
	"strings"
)

// baseline lists the extensions every amd64 CPU has (the x86-64 baseline
// that Go itself requires): they need no feature check.
var baseline = map[string]bool{
	"SSE": true, "SSE2": true, "CMOV": true, "MMX+": true, "CPUID": true, "RDTSC": true,
}

// features maps avo's extension names to kernels/cpu feature names.
var features = map[string]string{
	"SSE3": "sse3", "SSSE3": "ssse3", "SSE4.1": "sse41", "SSE4.2": "sse42",
	"POPCNT": "popcnt", "LZCNT": "lzcnt", "MOVBE": "movbe",
	"AVX": "avx", "AVX2": "avx2", "FMA3": "fma", "F16C": "f16c",
	"BMI": "bmi1", "BMI2": "bmi2", "ADX": "adx",
	"AES": "aes", "PCLMULQDQ": "pclmulqdq", "SHA": "sha",
	"VAES": "vaes", "VPCLMULQDQ": "vpclmulqdq", "GFNI": "gfni",
	"AVX512F": "avx512f", "AVX512BW": "avx512bw", "AVX512VL": "avx512vl",
	"AVX512DQ": "avx512dq", "AVX512CD": "avx512cd",
	"AVX512VBMI": "avx512vbmi", "AVX512VBMI2": "avx512vbmi2",
	"AVX512IFMA": "avx512ifma", "AVX512VNNI": "avx512vnni",
	"AVX512BITALG": "avx512bitalg", "AVX512VPOPCNTDQ": "avx512vpopcntdq",
}

// Feature returns the dispatch feature name of avo extension isa: "" for
// the amd64 baseline, an error for a name dispatch cannot check (so a new
// extension cannot slip through unchecked).
func Feature(isa string) (string, error) {
	if baseline[isa] {
		return "", nil
	}
	if f, ok := features[isa]; ok {
		return f, nil
	}
	return "", fmt.Errorf("instruction set extension %q has no kernels/cpu feature", isa)
}

// Features maps a list of avo extension names to the sorted, de-duplicated
// dispatch feature names they require (baseline ones dropped).
func Features(isas []string) ([]string, error) {
	var out []string
	for _, isa := range isas {
		f, err := Feature(isa)
		if err != nil {
			return nil, err
		}
		if f != "" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return out, nil
}

// ParseRequires maps the text of a "// Requires: A, B" comment (after the
// colon) to dispatch feature names.
func ParseRequires(line string) ([]string, error) {
	line = strings.TrimSpace(line)
	if line == "" {
		return nil, nil
	}
	return Features(strings.Split(line, ", "))
}
