package resultfile

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

// TestParseName: what ParseName reads of names tunelab writes and of
// names foreign and hostile files hold.
func TestParseName(t *testing.T) {
	for _, c := range []struct {
		name  string
		want  Name
		noErr bool
	}{
		{"KeccakX4/isa=avx2/size=64", Name{Base: "KeccakX4", Kernel: "KeccakX4", Variant: "isa=avx2", Full: "KeccakX4/isa=avx2/size=64", Sub: "isa=avx2/size=64", Knobs: true, HasSize: true, Size: 64, Offset: -1}, true},
		{"AES128/isa=aesni/align=64", Name{Base: "AES128", Kernel: "AES128", Variant: "isa=aesni/align=64", Full: "AES128/isa=aesni/align=64", Sub: "isa=aesni/align=64", Knobs: true, Offset: 0}, true},
		{"AES128/isa=aesni/align=64+8/size=1024", Name{Base: "AES128", Kernel: "AES128", Variant: "isa=aesni/align=64+8", Full: "AES128/isa=aesni/align=64+8/size=1024", Sub: "isa=aesni/align=64+8/size=1024", Knobs: true, HasSize: true, Size: 1024, Offset: 8}, true},
		{"KeccakX4/ext=circl/size=136", Name{Base: "KeccakX4", Kernel: "KeccakX4", Variant: "ext=circl", Full: "KeccakX4/ext=circl/size=136", Sub: "ext=circl/size=136", Knobs: true, HasSize: true, Size: 136, External: true, Offset: -1}, true},
		// A foreign file: sub-benchmark names that are not knobs, a
		// GOMAXPROCS suffix, a size in other units.
		{"Foo/fast-8", Name{Base: "Foo", Kernel: "Foo", Variant: "fast", Full: "Foo/fast", Sub: "fast", GOMAXPROCS: true, Offset: -1}, true},
		{"Foo-16", Name{Base: "Foo", Kernel: "Foo", Variant: "-", Full: "Foo", Sub: "Foo", GOMAXPROCS: true, Offset: -1}, true},
		{"BenchmarkFoo/size=1kB", Name{Base: "BenchmarkFoo", Kernel: "Foo", Variant: "-", Full: "BenchmarkFoo/size=1kB", Sub: "size=1kB", HasSize: true, Offset: -1}, false},
		// Hostile: sizes out of range, two sizes, an align that is no
		// offset, an ext= that is not the first knob.
		{"K/isa=x/size=0", Name{Base: "K", Kernel: "K", Variant: "isa=x", Full: "K/isa=x/size=0", Sub: "isa=x/size=0", Knobs: true, HasSize: true, Offset: -1}, false},
		{"K/isa=x/size=99999999999999999999", Name{Base: "K", Kernel: "K", Variant: "isa=x", Full: "K/isa=x/size=99999999999999999999", Sub: "isa=x/size=99999999999999999999", Knobs: true, HasSize: true, Offset: -1}, false},
		{"K/isa=x/size=8/size=9", Name{Base: "K", Kernel: "K", Variant: "isa=x", Full: "K/isa=x/size=8/size=9", Sub: "isa=x/size=8/size=9", Knobs: true, HasSize: true, Size: 8, Offset: -1}, true},
		{"K/isa=x/align=64+x", Name{Base: "K", Kernel: "K", Variant: "isa=x/align=64+x", Full: "K/isa=x/align=64+x", Sub: "isa=x/align=64+x", Knobs: true, Offset: -1}, true},
		{"K/isa=x/ext=y", Name{Base: "K", Kernel: "K", Variant: "isa=x/ext=y", Full: "K/isa=x/ext=y", Sub: "isa=x/ext=y", Knobs: true, Offset: -1}, true},
		{"K/isa=x/plain", Name{Base: "K", Kernel: "K", Variant: "isa=x/plain", Full: "K/isa=x/plain", Sub: "isa=x/plain", Offset: -1}, true},
		{"K/size=64", Name{Base: "K", Kernel: "K", Variant: "-", Full: "K/size=64", Sub: "size=64", HasSize: true, Size: 64, Offset: -1}, true},
	} {
		got := ParseName(benchfmt.Name(c.name))
		if (got.SizeErr == nil) != c.noErr {
			t.Errorf("ParseName(%q).SizeErr = %v, want an error: %v", c.name, got.SizeErr, !c.noErr)
		}
		got.SizeErr = nil
		if got != c.want {
			t.Errorf("ParseName(%q) =\n %+v\nwant\n %+v", c.name, got, c.want)
		}
	}
}

// TestParseNameSizeError: the error names the bound and the value.
func TestParseNameSizeError(t *testing.T) {
	n := ParseName(benchfmt.Name("K/isa=x/size=-3x"))
	if n.SizeErr == nil || !strings.Contains(n.SizeErr.Error(), "size=-3x") || n.Size != 0 {
		t.Errorf("ParseName(size=-3x) = size %d, error %v; want 0 and an error naming size=-3x", n.Size, n.SizeErr)
	}
}

// TestSweepOffset: align=64+N is N, align=64 is 0, anything else -1.
func TestSweepOffset(t *testing.T) {
	for label, want := range map[string]int{
		"isa=avx2/align=64":    0,
		"isa=avx2/align=64+0":  0,
		"isa=avx2/align=64+17": 17,
		"align=64+3/isa=avx2":  3,
		"isa=avx2/align=none":  -1,
		"isa=avx2/align=32":    -1,
		"isa=avx2/align=64+":   -1,
		"isa=avx2/align=64+-1": -1,
		"isa=avx2":             -1,
		"ext=circl":            -1,
		"-":                    -1,
	} {
		if got := SweepOffset(label); got != want {
			t.Errorf("SweepOffset(%q) = %d, want %d", label, got, want)
		}
	}
}

// TestParseBenchNameRefuses names BenchName does not write.
func TestParseBenchNameRefuses(t *testing.T) {
	for _, c := range []struct {
		name  string
		sized bool
	}{
		{"Other/isa=avx2/size=64", true},
		{"KeccakX4/isa=avx2", true},
		{"KeccakX4/isa=avx2/size=64", false},
		{"KeccakX4/isa=avx2/size=064", true},
		{"KeccakX4/isa=avx2/size=64-8", true},
		{"KeccakX4/size=64/isa=avx2", true},
		{"KeccakX4/isa=avx2/size=0", true},
		{"KeccakX4/", false},
		// A size= knob in a label is not a label ParseName reads back:
		// the first size= part is the size (as benchproc's /size).
		{"KeccakX4/isa=avx2/size=x/size=64", true},
		{"KeccakX4/isa=avx2/size=8/size=64", true},
		{"KeccakX4", false},
	} {
		if v, size, ok := ParseBenchName("KeccakX4", c.name, c.sized); ok {
			t.Errorf("ParseBenchName(%q, sized %v) = %q, %d, true; want refused", c.name, c.sized, v, size)
		}
	}
}
