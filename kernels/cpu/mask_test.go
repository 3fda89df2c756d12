package cpu

import (
	"slices"
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	tests := []struct {
		spec     string
		hidden   string // features of zen4All masked, canonical order
		warnings int
	}{
		{"", "", 0},
		{"vaes=off", "vaes", 0},
		{" vaes = off ,, gfni=off ", "vaes gfni", 0},
		{"avx512f=off", "avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni avx512bitalg avx512vpopcntdq avx512bf16", 0},
		{"avx512ifma=off", "avx512ifma", 0},
		{"avx2=off", "avx2 avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni avx512bitalg avx512vpopcntdq avx512bf16", 0},
		{"aes=off", "aes vaes", 0},
		{"pclmulqdq=off", "pclmulqdq vpclmulqdq", 0},
		{"avx=off", "avx avx2 fma f16c avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni avx512bitalg avx512vpopcntdq avx512bf16 vaes vpclmulqdq", 0},
		{"all=off", strings.Join(zen4Canonical(), " "), 0},
		{"osxsave=off", "avx avx2 fma f16c osxsave avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni avx512bitalg avx512vpopcntdq avx512bf16 vaes vpclmulqdq", 0},
		{"sse3=off", "sse3 ssse3 sse41 sse42 avx avx2 fma f16c avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni avx512bitalg avx512vpopcntdq avx512bf16 vaes vpclmulqdq", 0},
		{"avx513=off,vaes=off", "vaes", 1},
		{"vaes=on", "", 1},
		{"vaes", "", 1},
		{"avx512f=0,sha=off", "sha", 1},
	}
	for _, tt := range tests {
		c := zen4(t)
		w := c.Mask(tt.spec)
		if got := strings.Join(c.MaskedList(), " "); got != tt.hidden || len(w) != tt.warnings {
			t.Errorf("mask %q: hidden %q (%d warnings %q), want %q (%d warnings)", tt.spec, got, len(w), w, tt.hidden, tt.warnings)
		}
		for _, f := range c.MaskedList() {
			if c.Has(f) {
				t.Errorf("mask %q: Has(%s) true for a masked feature", tt.spec, f)
			}
		}
	}
}

// zen4Canonical is zen4All in canonical order.
func zen4Canonical() []string { return mustSet(zen4All...).Names() }

func TestMaskWarningsNameEntry(t *testing.T) {
	_, w := parseMask("avx513=off")
	if len(w) != 1 || !strings.Contains(w[0], `"avx513"`) || !strings.Contains(w[0], EnvCPU) {
		t.Errorf("warnings %q, want one naming %s and \"avx513\"", w, EnvCPU)
	}
}

func TestHasUnknownFeature(t *testing.T) {
	c := zen4(t)
	if c.Has("avx512") || c.Has("avx2", "bogus") {
		t.Error("Has reports an unknown feature name as present")
	}
	if !c.Has() || !c.Has("avx2", "avx512ifma") {
		t.Error("Has misses features the synthetic Zen 4 has")
	}
	if m := c.Missing("avx2", "bogus", "avx10"); !equalStrings(m, []string{"bogus", "avx10"}) {
		t.Errorf("Missing = %v, want [bogus avx10]", m)
	}
}

func TestSetFeaturesRejectsUnknown(t *testing.T) {
	c := zen4(t)
	if err := c.SetFeatures("avx2", "avx-512"); err == nil || !strings.Contains(err.Error(), "avx-512") {
		t.Errorf("SetFeatures with unknown name: err %v, want one naming it", err)
	}
	if !c.Has("avx512f") {
		t.Error("failed SetFeatures changed the CPU")
	}
}

// TestMaskClosesOverRequirements checks masks both ways: masking a
// feature hides every feature that requires it, transitively (osxsave
// hides AVX and everything above it, avx2 hides AVX-512), and nothing
// that does not.
func TestMaskClosesOverRequirements(t *testing.T) {
	for _, f := range featureTable {
		c := zen4(t)
		c.Mask(f.name + "=off")
		for _, g := range featureTable {
			if want := g.name == f.name || needsTransitively(g.name, f.name); c.Has(g.name) == want && mustSet(zen4All...)&mustSet(g.name) != 0 {
				t.Errorf("%s=off: Has(%s) = %v, want %v", f.name, g.name, !want, !want)
			}
		}
	}
	c := zen4(t)
	c.Mask("osxsave=off")
	if c.Level() != "x86-64-v2" || c.Has("avx") || c.Has("avx512f") || c.Has("vaes") {
		t.Errorf("osxsave=off: level %s, avx %v, avx512f %v, vaes %v; want x86-64-v2 without AVX", c.Level(), c.Has("avx"), c.Has("avx512f"), c.Has("vaes"))
	}
}

// needsTransitively reports whether feature f requires g, directly or
// through other requirements.
func needsTransitively(f, g string) bool {
	for _, r := range requires[f] {
		if r == g || needsTransitively(r, g) {
			return true
		}
	}
	return false
}

// TestSplitList checks the list grammar: items trimmed, empty items
// dropped, nil when none is left.
func TestSplitList(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{" , ,", nil},
		{"avx2", []string{"avx2"}},
		{" a=1 ,, b c ,", []string{"a=1", "b c"}},
	}
	for _, tt := range tests {
		got := SplitList(tt.in)
		if !slices.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("SplitList(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
