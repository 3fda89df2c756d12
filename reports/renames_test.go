package reports

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/lab/catalog"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// oldNamesFile returns a result file of an older commit: keccak.x4 with
// its xpose knob still called "transpose", and a variant that no longer
// exists.
func oldNamesFile(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile(fixture("zen4.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(string(data[:strings.Index(string(data), "# tunelab: variant")]))
	b.WriteString("kernel: keccak.x4\n")
	for i := 0; i < 10; i++ {
		for v, ns := range map[string]float64{
			"isa=generic": 2000,
			"isa=avx2/rot=shufb/chi=andnxor/regs=spill/unroll=1/transpose=unpack/align=64":     400,
			"isa=avx2/rot=shiftor/chi=andnxor/regs=spill/unroll=1/transpose=unpack/align=none": 420,
			"isa=avx2/rot=gone/unroll=1/align=64":                                              300,
		} {
			fmt.Fprintf(&b, "BenchmarkKeccakX4/%s 1000 %.2f ns/op\n", v, ns*(1+0.001*float64(i)))
		}
	}
	return fixtures.WriteFile(t, "old.txt", b.String())
}

// TestOldNamesMapOntoToday reads a file with old names under a rename
// (transpose=* -> xpose=*): its results join today's variants, the
// variant that is gone is left out (never a pick), and each is reported
// once for the file with counts and examples.
func TestOldNamesMapOntoToday(t *testing.T) {
	defer func(f func() []catalog.Rename) { readRenames = f }(readRenames)
	readRenames = func() []catalog.Rename {
		return []catalog.Rename{{Kernel: "keccak.x4", From: "transpose=*", To: "xpose=*", Since: "test"}}
	}
	path := oldNamesFile(t)
	set, warnings, err := Read([]string{path})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, p := range set.Points {
		names[p.Variant] += len(p.NS)
	}
	for _, want := range []string{"isa=avx2/rot=shufb/chi=andnxor/regs=spill/unroll=1/xpose=unpack/align=64",
		"isa=avx2/rot=shiftor/chi=andnxor/regs=spill/unroll=1/xpose=unpack/align=none", "isa=generic"} {
		if names[want] != 10 {
			t.Errorf("today's %s has %d samples, want the old file's 10 (points %v)", want, names[want], names)
		}
	}
	if _, ok := names["isa=avx2/rot=gone/unroll=1/align=64"]; ok {
		t.Errorf("a variant that is gone was kept: %v", names)
	}
	joined := strings.Join(warnings, "\n")
	for _, want := range []string{
		path + ": 2 variants (20 results) of an older commit mapped onto today's names",
		path + ": 1 variant (10 results) that today's tunelab no longer has left out",
		"keccak.x4 isa=avx2/rot=gone/unroll=1/align=64",
	} {
		if strings.Count(joined, want) != 1 {
			t.Errorf("warnings lack (once) %q:\n%s", want, joined)
		}
	}
	r := Analyze(set, DefaultOptions())
	if w := group(t, r, "Zen 4", "keccak.x4", 0).Decision.Winner; !strings.Contains(w, "xpose=unpack") {
		t.Errorf("winner %q, want one of today's names", w)
	}
}
