package cpu

import (
	"strings"
	"testing"
)

func TestLevel(t *testing.T) {
	tests := []struct {
		features []string
		mask     string
		level    string
		extras   string
	}{
		{nil, "", LevelV1, ""},
		{[]string{"sse3", "ssse3", "sse41"}, "", LevelV1, "sse41"},
		{v2Features, "", LevelV2, ""},
		{append(append([]string{}, v2Features...), "avx", "aes"), "", LevelV2, "avx aes"},
		{haswellAll, "", LevelV3, "aes pclmulqdq"},
		{zen4All, "", LevelV4, strings.Join(zen4Extras, " ")},
		{zen4All, "avx512f=off", LevelV3, "adx aes pclmulqdq sha vaes vpclmulqdq gfni"},
		{zen4All, "avx512vl=off", LevelV3, "adx aes pclmulqdq sha avx512f avx512bw avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni avx512bitalg avx512vpopcntdq avx512bf16 vaes vpclmulqdq gfni"},
		{zen4All, "avx2=off", LevelV2, "avx bmi1 bmi2 adx aes pclmulqdq sha vaes vpclmulqdq gfni"},
		{zen4All, "sse41=off", LevelV1, "bmi1 bmi2 adx aes pclmulqdq sha gfni"},
		{zen4All, "all=off", LevelV1, ""},
	}
	for _, tt := range tests {
		c := synth(t, VendorAMD, 0x19, 0x11, tt.features)
		if w := c.Mask(tt.mask); len(w) > 0 {
			t.Fatalf("mask %q: unexpected warnings %q", tt.mask, w)
		}
		extras := strings.Join(c.Extras(), " ")
		if c.Level() != tt.level || extras != tt.extras {
			t.Errorf("features %v mask %q: level %s extras %q, want %s %q", tt.features, tt.mask, c.Level(), extras, tt.level, tt.extras)
		}
	}
}

func TestFeatureLevelFromList(t *testing.T) {
	level, extras := FeatureLevel(zen4All)
	if level != LevelV4 || !equalStrings(extras, zen4Extras) {
		t.Errorf("FeatureLevel(zen4) = %s %v, want %s %v", level, extras, LevelV4, zen4Extras)
	}
	if level, _ := FeatureLevel([]string{"avx2", "bogus"}); level != LevelV1 {
		t.Errorf("FeatureLevel(avx2 only) = %s, want %s", level, LevelV1)
	}
}

func TestLevelNonAMD64(t *testing.T) {
	c := zen4(t)
	c.Arch = "arm64"
	if l := c.Level(); l != "" {
		t.Errorf("Level on arm64 = %q, want empty", l)
	}
}

func TestLevelRank(t *testing.T) {
	for level, want := range map[string]int{"": 0, LevelV1: 1, LevelV2: 2, LevelV3: 3, LevelV4: 4, "x86-64-v5": -1, "v3": -1} {
		if got := LevelRank(level); got != want {
			t.Errorf("LevelRank(%q) = %d, want %d", level, got, want)
		}
	}
}

func TestLevelCPU(t *testing.T) {
	for _, lv := range []string{LevelV1, LevelV2, LevelV3, LevelV4} {
		c, err := LevelCPU(lv, "aes")
		if err != nil || c.Level() != lv || !c.Has("aes") {
			t.Errorf("LevelCPU(%s, aes): %v, level %v", lv, err, c)
		}
	}
	if _, err := LevelCPU("x86-64-v9"); err == nil {
		t.Error("LevelCPU accepted an unknown level")
	}
	if _, err := LevelCPU(LevelV3, "avx10"); err == nil {
		t.Error("LevelCPU accepted an unknown feature")
	}
}
