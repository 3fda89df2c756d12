package dispatch

import (
	"math/bits"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// A featureSet is a bit set over featureTable indexes.
type featureSet uint64

// featureInfo names one feature and its cpuid/v2 identifier.
type featureInfo struct {
	name  string
	id    cpuid.FeatureID
	level bool // only decides the feature level, not kernel-relevant
}

// featureTable lists every known feature in canonical (printing) order.
var featureTable = []featureInfo{
	{"sse3", cpuid.SSE3, true},
	{"ssse3", cpuid.SSSE3, true},
	{"sse41", cpuid.SSE4, false},
	{"sse42", cpuid.SSE42, true},
	{"popcnt", cpuid.POPCNT, true},
	{"cx16", cpuid.CX16, true},
	{"lahf", cpuid.LAHF, true},
	{"avx", cpuid.AVX, false},
	{"avx2", cpuid.AVX2, false},
	{"fma", cpuid.FMA3, true},
	{"f16c", cpuid.F16C, true},
	{"lzcnt", cpuid.LZCNT, true},
	{"movbe", cpuid.MOVBE, true},
	{"osxsave", cpuid.OSXSAVE, true},
	{"bmi1", cpuid.BMI1, false},
	{"bmi2", cpuid.BMI2, false},
	{"adx", cpuid.ADX, false},
	{"aes", cpuid.AESNI, false},
	{"pclmulqdq", cpuid.CLMUL, false},
	{"sha", cpuid.SHA, false},
	{"avx512f", cpuid.AVX512F, false},
	{"avx512bw", cpuid.AVX512BW, false},
	{"avx512vl", cpuid.AVX512VL, false},
	{"avx512dq", cpuid.AVX512DQ, false},
	{"avx512cd", cpuid.AVX512CD, false},
	{"avx512vbmi", cpuid.AVX512VBMI, false},
	{"avx512vbmi2", cpuid.AVX512VBMI2, false},
	{"avx512ifma", cpuid.AVX512IFMA, false},
	{"avx512vnni", cpuid.AVX512VNNI, false},
	{"avx512bitalg", cpuid.AVX512BITALG, false},
	{"avx512vpopcntdq", cpuid.AVX512VPOPCNTDQ, false},
	{"avx512bf16", cpuid.AVX512BF16, false},
	{"vaes", cpuid.VAES, false},
	{"vpclmulqdq", cpuid.VPCLMULQDQ, false},
	{"gfni", cpuid.GFNI, false},
}

// featureIndex maps a feature name to its featureTable index.
var featureIndex = func() map[string]int {
	m := make(map[string]int, len(featureTable))
	for i, f := range featureTable {
		m[f.name] = i
	}
	return m
}()

// allFeatures has every known feature set.
var allFeatures = featureSet(1)<<len(featureTable) - 1

// maskImplies lists, per feature, the features that cannot be used without
// it; masking the key masks them too (transitively).
var maskImplies = map[string][]string{
	"sse3":      {"ssse3"},
	"ssse3":     {"sse41"},
	"sse41":     {"sse42"},
	"sse42":     {"avx"},
	"avx":       {"avx2", "fma", "f16c", "vaes", "vpclmulqdq"},
	"avx2":      {"avx512f"},
	"aes":       {"vaes"},
	"pclmulqdq": {"vpclmulqdq"},
	"avx512f": {"avx512bw", "avx512vl", "avx512dq", "avx512cd", "avx512vbmi",
		"avx512vbmi2", "avx512ifma", "avx512vnni", "avx512bitalg",
		"avx512vpopcntdq", "avx512bf16"},
}

// setOf returns the set of the named features; ok is false if a name is
// unknown (unknown names are left out).
func setOf(names ...string) (s featureSet, ok bool) {
	ok = true
	for _, n := range names {
		i, known := featureIndex[n]
		if !known {
			ok = false
			continue
		}
		s |= 1 << i
	}
	return s, ok
}

// mustSet is setOf for names known to be valid.
func mustSet(names ...string) featureSet {
	s, ok := setOf(names...)
	if !ok {
		panic("dispatch: unknown feature in " + strings.Join(names, " "))
	}
	return s
}

// names lists the features of s in canonical order.
func (s featureSet) names() []string {
	out := make([]string, 0, bits.OnesCount64(uint64(s)))
	for i, f := range featureTable {
		if s&(1<<i) != 0 {
			out = append(out, f.name)
		}
	}
	return out
}

// maskClosure returns s plus every feature masked along with it.
func maskClosure(s featureSet) featureSet {
	for {
		next := s
		for i, f := range featureTable {
			if s&(1<<i) != 0 {
				next |= mustSet(maskImplies[f.name]...)
			}
		}
		if next == s {
			return s
		}
		s = next
	}
}

// hostFeatures reads the known features from cpuid/v2.
func hostFeatures() featureSet {
	var s featureSet
	for i, f := range featureTable {
		if cpuid.CPU.Supports(f.id) {
			s |= 1 << i
		}
	}
	return s
}

// CanonicalFeatures returns the known names among features in canonical
// order without duplicates, and the unknown names in the order given.
func CanonicalFeatures(features []string) (known, unknown []string) {
	s, _ := setOf(features...)
	for _, f := range features {
		if _, ok := featureIndex[f]; !ok {
			unknown = append(unknown, f)
		}
	}
	return s.names(), unknown
}
