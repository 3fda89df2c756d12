package harness

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// TestCodeBytesFromBinary checks that a variant's code size is measured in
// the binary (here, a function of this test binary), and that a variant
// without a function there keeps its registered size.
func TestCodeBytesFromBinary(t *testing.T) {
	fn := &variant.Variant{Symbol: "github.com/tunelab/tunelab/harness.CodeBytes", CodeBytes: 1}
	if got := CodeBytes(fn); got <= 1 {
		t.Errorf("code size of harness.CodeBytes measured as %d bytes", got)
	}
	for _, v := range []*variant.Variant{{CodeBytes: 640}, {Symbol: "no.such.function", CodeBytes: 640}} {
		if got := CodeBytes(v); got != 640 {
			t.Errorf("code size of %q: %d, want its registered 640", v.Symbol, got)
		}
	}
}
