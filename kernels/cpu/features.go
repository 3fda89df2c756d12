package cpu

import (
	"math/bits"
	"strings"

	"github.com/klauspost/cpuid/v2"
)

// A FeatureSet is a set of known features (a bit set over featureTable
// indexes, in canonical order). The zero value is the empty set.
type FeatureSet uint64

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
var allFeatures = FeatureSet(1)<<len(featureTable) - 1

// requires lists, per feature, the features it cannot be used without:
// CPUID reports each on its own, but AVX state needs the OS's XSAVE
// support (osxsave), every AVX extension needs AVX, AVX-512 needs AVX2,
// and so on. Masking a feature masks every feature that requires it,
// transitively (maskClosure), so that a masked CPU is one that could
// exist: osxsave=off hides AVX and everything above it, avx2=off hides
// AVX-512. (The hardware's own set is taken as cpuid/v2 reports it,
// which already clears AVX state features the OS does not enable.)
var requires = map[string][]string{
	"ssse3": {"sse3"}, "sse41": {"ssse3"}, "sse42": {"sse41"},
	"avx":  {"sse42", "osxsave"},
	"avx2": {"avx"}, "fma": {"avx"}, "f16c": {"avx"},
	"vaes": {"avx", "aes"}, "vpclmulqdq": {"avx", "pclmulqdq"},
	"avx512f":  {"avx2"},
	"avx512bw": {"avx512f"}, "avx512vl": {"avx512f"}, "avx512dq": {"avx512f"}, "avx512cd": {"avx512f"},
	"avx512vbmi": {"avx512f"}, "avx512vbmi2": {"avx512f"}, "avx512ifma": {"avx512f"}, "avx512vnni": {"avx512f"},
	"avx512bitalg": {"avx512f"}, "avx512vpopcntdq": {"avx512f"}, "avx512bf16": {"avx512f"},
}

// SetOf returns the set of the named features; ok is false if a name is
// unknown (unknown names are left out).
func SetOf(names ...string) (s FeatureSet, ok bool) {
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
func mustSet(names ...string) FeatureSet {
	s, ok := SetOf(names...)
	if !ok {
		panic("cpu: unknown feature in " + strings.Join(names, " "))
	}
	return s
}

// KnownFeatures returns the set of every known feature.
func KnownFeatures() FeatureSet { return allFeatures }

// Len returns the number of features in s.
func (s FeatureSet) Len() int { return bits.OnesCount64(uint64(s)) }

// Level returns the highest x86-64 feature level whose features are all
// in s (LevelV1 for none).
func (s FeatureSet) Level() string { return levelOf(s) }

// Names lists the features of s in canonical order.
func (s FeatureSet) Names() []string {
	out := make([]string, 0, s.Len())
	for i, f := range featureTable {
		if s&(1<<i) != 0 {
			out = append(out, f.name)
		}
	}
	return out
}

// maskClosure returns s plus every feature that requires one in s,
// transitively: what masking s hides.
func maskClosure(s FeatureSet) FeatureSet {
	for {
		next := s
		for i, f := range featureTable {
			if s&(1<<i) == 0 && s&mustSet(requires[f.name]...) != 0 {
				next |= 1 << i
			}
		}
		if next == s {
			return s
		}
		s = next
	}
}

// hostFeatures reads the known features from cpuid/v2.
func hostFeatures() FeatureSet {
	var s FeatureSet
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
	s, _ := SetOf(features...)
	for _, f := range features {
		if _, ok := featureIndex[f]; !ok {
			unknown = append(unknown, f)
		}
	}
	return s.Names(), unknown
}
