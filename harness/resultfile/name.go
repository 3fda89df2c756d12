package resultfile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/kernels/variant"
	"golang.org/x/perf/benchfmt"
)

// A Name is what a benchmark name says, as ParseName reads it. Every
// reader of result files (reports, the harness's resume) reads names
// through ParseName, so that they agree on the variant, the size and
// what kind of contender a name is.
type Name struct {
	// Base is the base name as benchfmt splits it (without "Benchmark":
	// "KeccakX4"), Kernel the same without a further "Benchmark" prefix
	// (the kernel of a foreign file without a kernel config line).
	Base, Kernel string
	// Variant is the variant label: the name's parts other than size and
	// the GOMAXPROCS suffix, joined by "/" ("isa=avx2/align=64", or the
	// sub-benchmark names of a foreign file); "-" when there are none.
	Variant string
	// Full is the name without the GOMAXPROCS suffix, Sub the same after
	// the base name and its slash.
	Full, Sub string
	// Knobs reports whether the name has parts besides the GOMAXPROCS
	// suffix and every one is key=value (as tunelab writes names).
	Knobs bool
	// GOMAXPROCS reports whether the name ends in a "-N" suffix.
	GOMAXPROCS bool
	// HasSize reports whether the name has a /size= part; Size is the
	// first one's value (0 for an empty one), SizeErr says why it is
	// none when it is not an integer between 1 and MaxSize (Size is then
	// 0).
	HasSize bool
	Size    int
	SizeErr error
	// External reports an external reference (Variant "ext=..."),
	// Offset the N of an offset-sweep member (see SweepOffset).
	External bool
	Offset   int
}

// ParseName parses a benchmark name (as benchfmt reads it, without
// "Benchmark"): "KeccakX4/isa=avx2/size=64".
func ParseName(name benchfmt.Name) Name {
	base, parts := name.Parts()
	n := Name{Base: string(base), Full: string(base), Knobs: true}
	n.Kernel = strings.TrimPrefix(n.Base, "Benchmark")
	var labels []string
	for _, p := range parts {
		s := string(p)
		if strings.HasPrefix(s, "-") {
			n.GOMAXPROCS = true
			continue
		}
		n.Full += s
		kv := strings.TrimPrefix(s, "/")
		n.Knobs = n.Knobs && strings.Contains(kv, "=")
		if v, ok := strings.CutPrefix(kv, "size="); ok {
			n.noteSize(v)
			continue
		}
		labels = append(labels, kv)
	}
	n.Sub = strings.TrimPrefix(n.Full, n.Base+"/")
	n.Variant = "-"
	if len(labels) > 0 {
		n.Variant = strings.Join(labels, "/")
	}
	n.Knobs = n.Knobs && len(labels) > 0
	n.External, n.Offset = IsExternal(n.Variant), SweepOffset(n.Variant)
	return n
}

// noteSize records the value of a /size= part; only the first counts.
func (n *Name) noteSize(v string) {
	if n.HasSize {
		return
	}
	n.HasSize = true
	if v == "" {
		return // benchfmt's reading of a trailing "size=-1" (refused by CheckResult) or a bare "size=": no size
	}
	size, err := strconv.Atoi(v)
	if err != nil || size < 1 || size > MaxSize {
		n.SizeErr = fmt.Errorf("expected an integer size between 1 and %d, got size=%s", MaxSize, v)
		return
	}
	n.Size = size
}

// IsExternal reports whether a variant label names an external
// reference implementation ("ext=circl"), which never wins.
func IsExternal(label string) bool { return strings.HasPrefix(label, "ext=") }

// SweepOffset returns N for a variant label with knob align=64+N (a
// member of an offset sweep of tunelab align), 0 for align=64 and -1 for
// anything else.
func SweepOffset(label string) int {
	a := Knob(label, "align")
	if a == "64" {
		return 0
	}
	rest, ok := strings.CutPrefix(a, "64+")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(rest)
	if err != nil {
		return -1
	}
	return n
}

// Knob returns the value of knob key in a variant label
// ("isa=avx2/align=64"; see variant.Knobs), "" when it has none.
func Knob(label, key string) string {
	return (&variant.Variant{Name: label}).Knob(key)
}

// GroupKey names a group in harness lines: the kernel, with "/size=N"
// for a kernel measured at sizes (size > 0).
func GroupKey(kernel string, size int) string {
	if size <= 0 {
		return kernel
	}
	return kernel + "/size=" + strconv.Itoa(size)
}

// BenchName is the benchmark name (without "Benchmark") of a variant of
// a kernel whose benchmark is bench, at size (0 for a kernel without
// sizes): "KeccakX4/isa=avx2/size=64".
func BenchName(bench, variant string, size int) string {
	if size <= 0 {
		return bench + "/" + variant
	}
	return bench + "/" + variant + "/size=" + strconv.Itoa(size)
}

// ParseBenchName inverts BenchName for a kernel whose benchmark is bench
// and that has sizes (sized) or not: it parses name with ParseName and
// accepts it only if the label is not empty and BenchName writes
// exactly that name back (so a label holding a size= knob, which
// ParseName reads as the size, is refused).
func ParseBenchName(bench, name string, sized bool) (variant string, size int, ok bool) {
	n := ParseName(benchfmt.Name(name))
	if n.Base != bench || n.Variant == "" || n.HasSize != sized || n.SizeErr != nil || BenchName(bench, n.Variant, n.Size) != name {
		return "", 0, false
	}
	return n.Variant, n.Size, true
}
