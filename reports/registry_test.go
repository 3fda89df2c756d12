package reports

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// The test kernels of the fixtures in testdata (see genfixtures.go),
// registered for the tests of this package only.
func init() {
	variant.RegisterKernel(variant.Kernel{Name: "test.fixed", Family: "test", Bench: "TestFixed", Unit: "op",
		UnitsPerOp: func(int) float64 { return 1 }})
	variant.RegisterKernel(variant.Kernel{Name: "test.sized", Family: "test", Bench: "TestSized", Unit: "B",
		Sizes: []int{64, 256, 1024, 4096}, SizeClasses: true, UnitsPerOp: func(n int) float64 { return float64(n) }})
	reg := func(kernel, name string, code int, fs ...string) {
		variant.Register(variant.Variant{Kernel: kernel, Name: name, Features: fs, CodeBytes: code})
	}
	avx2 := []string{"avx", "avx2"}
	avx512 := []string{"avx512f", "avx512vl"}
	reg("test.fixed", "isa=generic", 0)
	for _, align := range []string{"none", "64"} {
		code := 400
		if align == "64" {
			code = 440 // PCALIGN padding
		}
		reg("test.fixed", "isa=avx2/unroll=1/align="+align, code, avx2...)
		reg("test.fixed", "isa=avx2/unroll=2/align="+align, code+200, avx2...)
		reg("test.fixed", "isa=avx512vl/unroll=1/align="+align, code, avx512...)
		reg("test.fixed", "isa=avx512vl/unroll=2/align="+align, code+200, avx512...)
	}
	for n := 4; n <= 60; n += 4 {
		variant.Register(variant.Variant{Kernel: "test.fixed", Name: fmt.Sprintf("isa=avx512vl/unroll=2/align=64+%d", n),
			Features: avx512, CodeBytes: 640 + n, OffsetSweep: true})
	}
	variant.Register(variant.Variant{Kernel: "test.fixed", Name: "ext=ref", External: true})
	reg("test.sized", "isa=generic", 0)
	reg("test.sized", "isa=scalar", 300)
	reg("test.sized", "isa=bmi2", 280, "bmi2")
	reg("test.sized", "isa=avx2", 500, avx2...)
	reg("test.sized", "isa=avx512vl", 700, avx512...)
}

// fixture returns the path of a file in testdata.
func fixture(name string) string { return filepath.Join("testdata", name) }

// load reads fixtures and analyzes them with the default options.
func load(t *testing.T, names ...string) (*Report, []string) {
	t.Helper()
	paths := make([]string, len(names))
	for i, n := range names {
		paths[i] = fixture(n)
	}
	set, warnings, err := Read(paths)
	if err != nil {
		t.Fatalf("Read(%v): %v", names, err)
	}
	return Analyze(set, DefaultOptions()), warnings
}
