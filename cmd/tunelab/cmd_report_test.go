package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// fixtures are the fabricated result files of package reports: test
// kernels test.fixed and test.sized on Zen 4 and Sapphire Rapids.
const fixtures = "../../reports/testdata/"

// The test kernels of the fixtures, registered for this package's tests.
func init() {
	variant.RegisterKernel(variant.Kernel{Name: "test.fixed", Family: "test", Bench: "TestFixed"})
	variant.RegisterKernel(variant.Kernel{Name: "test.sized", Family: "test", Bench: "TestSized", Sizes: []int{64, 256, 1024, 4096}})
	avx2, avx512 := []string{"avx", "avx2"}, []string{"avx512f", "avx512vl"}
	reg := func(kernel, name string, code int, fs []string) {
		variant.Register(variant.Variant{Kernel: kernel, Name: name, Features: fs, CodeBytes: code})
	}
	reg("test.fixed", "isa=generic", 0, nil)
	for i, align := range []string{"none", "64"} {
		reg("test.fixed", "isa=avx2/unroll=1/align="+align, 400+40*i, avx2)
		reg("test.fixed", "isa=avx2/unroll=2/align="+align, 600+40*i, avx2)
		reg("test.fixed", "isa=avx512vl/unroll=1/align="+align, 400+40*i, avx512)
		reg("test.fixed", "isa=avx512vl/unroll=2/align="+align, 600+40*i, avx512)
	}
	for n := 4; n <= 60; n += 4 {
		variant.Register(variant.Variant{Kernel: "test.fixed", Name: fmt.Sprintf("isa=avx512vl/unroll=2/align=64+%d", n),
			Features: avx512, OffsetSweep: true})
	}
	variant.Register(variant.Variant{Kernel: "test.fixed", Name: "ext=ref", External: true})
	reg("test.sized", "isa=generic", 0, nil)
	reg("test.sized", "isa=scalar", 300, nil)
	reg("test.sized", "isa=bmi2", 280, []string{"bmi2"})
	reg("test.sized", "isa=avx2", 500, avx2)
	reg("test.sized", "isa=avx512vl", 700, avx512)
}

func TestReportText(t *testing.T) {
	md := filepath.Join(t.TempDir(), "report.md")
	html := filepath.Join(t.TempDir(), "report.html")
	out, stderr, code := runCLI(t, "report", fixtures+"zen4.txt", fixtures+"spr.txt", fixtures+"sweep.txt", "--md", md, "--html", html)
	if code != 0 {
		t.Fatalf("tunelab report: exit %d, stderr %q", code, stderr)
	}
	golden(t, "report_text.golden", out)
	mdText, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report_md.golden", string(mdText))
	page, err := os.ReadFile(html)
	if err != nil || !strings.Contains(string(page), "<svg") {
		t.Errorf("--html wrote no SVG charts (err %v)", err)
	}
}

func TestReportInputErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"report"}, 2, "no result files"},
		{[]string{"report", fixtures + "empty.txt"}, 2, "empty.txt: no benchmark results"},
		{[]string{"report", fixtures + "missing.txt"}, 2, "missing.txt"},
		{[]string{"report", "--bogus", fixtures + "zen4.txt"}, 2, "bogus"},
		{[]string{"report", fixtures + "bad.txt"}, 0, "bad.txt:28: expected key=value"},
	}
	for _, c := range cases {
		_, stderr, code := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("tunelab %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func TestParseInterspersed(t *testing.T) {
	e := &env{stdout: new(strings.Builder), stderr: new(strings.Builder)}
	fs := newFlags(e, "x", "x")
	md := fs.String("md", "", "")
	pos, err := parseInterspersed(fs, []string{"a", "--md", "m", "b", "--", "--c"})
	if err != nil || *md != "m" || strings.Join(pos, ",") != "a,b,--c" {
		t.Errorf("parseInterspersed: pos %q, md %q, err %v; want a,b,--c and m", pos, *md, err)
	}
}
