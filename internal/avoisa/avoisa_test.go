package avoisa

import (
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
)

func TestParseRequires(t *testing.T) {
	got, err := ParseRequires("AES, AVX, AVX2, AVX512F, SSE2, VAES, AVX512VL")
	want := []string{"aes", "avx", "avx2", "avx512f", "avx512vl", "vaes"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("ParseRequires = %v, %v; want %v", got, err, want)
	}
	if got, err := ParseRequires("CMOV, SSE2"); err != nil || len(got) != 0 {
		t.Errorf("baseline extensions: %v, %v; want none", got, err)
	}
	if _, err := ParseRequires("AVX, AMX-TILE"); err == nil || !strings.Contains(err.Error(), `"AMX-TILE"`) {
		t.Errorf("unknown extension: error %v, want one naming it", err)
	}
}

// TestDispatchKnowsEveryFeature checks that kernels/cpu can detect
// every feature the table maps to.
func TestDispatchKnowsEveryFeature(t *testing.T) {
	for isa, f := range features {
		var c cpu.CPU
		if err := c.SetFeatures(f); err != nil {
			t.Errorf("%s maps to %s: %v", isa, f, err)
		}
	}
}
