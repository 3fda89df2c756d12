package render

import (
	"bytes"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
)

func htmlOf(t *testing.T, r *reports.Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteHTML(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestHTMLSelfContained(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt", "sweep.txt")
	page := htmlOf(t, r)
	for _, class := range []string{`<svg class="chart bars"`, `<svg class="chart lines"`, `<svg class="chart effects"`, `<svg class="chart heat"`} {
		if !strings.Contains(page, class) {
			t.Errorf("HTML lacks a chart %s", class)
		}
	}
	if strings.Contains(page, "<script") {
		t.Error("HTML contains a script; the report needs none")
	}
	// No network: the only URLs allowed are in-page anchors.
	for _, u := range regexp.MustCompile(`(?:src|href)="[^"]*"|https?://[^"]*`).FindAllString(page, -1) {
		if !strings.HasPrefix(u, `href="#`) {
			t.Errorf("HTML references %q; it must be self-contained", u)
		}
	}
}

// TestHTMLOrder checks that the summary comes first, then the table of
// contents, and that every contents link has a target.
func TestHTMLOrder(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt", "sweep.txt")
	page := htmlOf(t, r)
	sum, toc, first := strings.Index(page, `<h2 id="summary">`), strings.Index(page, `<h2 id="contents">`), strings.Index(page, `<h3 id="g0">`)
	if sum < 0 || toc < sum || first < toc {
		t.Errorf("sections out of order: summary at %d, contents at %d, first kernel section at %d", sum, toc, first)
	}
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(page, -1) {
		ids[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`href="#([^"]+)"`).FindAllStringSubmatch(page, -1) {
		if !ids[m[1]] {
			t.Errorf("link to #%s has no target", m[1])
		}
	}
	for i := range r.Groups {
		if !strings.Contains(page, fmt.Sprintf(`href="#g%d"`, i)) {
			t.Errorf("contents do not link group %d (%s)", i, reports.GroupTitle(r.Groups[i]))
		}
	}
}

// TestHTMLSizeBound writes the report of a synthetic one-host sweep as
// large as a default sweep (66 groups, 32 variants each, like the AVX2
// Zen 3 here) and of one three times as wide (an AVX-512 host) and
// requires both pages to stay within 400 KB.
func TestHTMLSizeBound(t *testing.T) {
	const limit = 400 << 10
	for _, variants := range []int{32, 96} {
		r := reports.Analyze(syntheticSweep(66, variants), reports.DefaultOptions())
		n := len(htmlOf(t, r))
		t.Logf("66 groups × %d variants: %d bytes", variants, n)
		if n > limit {
			t.Errorf("HTML report of 66 groups × %d variants is %d bytes, want at most %d", variants, n, limit)
		}
	}
}

// syntheticSweep returns a one-host set shaped like a default sweep:
// groups kernel/size groups of variants variants each (six knobs, the
// generic code and two external references), ten samples per variant.
func syntheticSweep(groups, variants int) *reports.Set {
	m := &reports.Model{Key: "AuthenticAMD/0x19/0x11", Uarch: "Zen 4", Vendor: "AuthenticAMD", Family: 0x19, Model: 0x11,
		Features: []string{"aes", "avx", "avx2", "bmi1", "bmi2", "pclmulqdq", "sse41", "vaes"}}
	set := &reports.Set{Models: []*reports.Model{m}, Files: []*reports.File{{Path: "synthetic.txt"}}}
	sizes := []int{16, 64, 256, 1024, 16384, 1 << 20}
	for gi := 0; gi < groups; gi++ {
		kernel, size := fmt.Sprintf("synth%02d.kernel", gi/len(sizes)), sizes[gi%len(sizes)]
		names := []string{"isa=generic", "ext=stdblock", "ext=stdctr"}
		for v := 0; len(names) < variants+3; v++ {
			names = append(names, fmt.Sprintf("isa=vaes%d/inflight=%d/keys=%s/whiten=%s/tail=%s/align=%d",
				256<<(v%2), 1<<(v/2%4), []string{"mem", "regs"}[v/8%2], []string{"xor", "fold"}[v/16%2],
				[]string{"narrow", "mask"}[v/64%2], 32<<(v/32%2)))
		}
		for vi, name := range names {
			base := float64(size+64) * (1 + 0.01*float64(vi))
			if vi == 0 {
				base *= 300
			}
			p := &reports.Point{Model: m, Kernel: kernel, Bench: "BenchmarkSynth", Size: size, Variant: name}
			for i := 0; i < 10; i++ {
				p.NS = append(p.NS, base*(1+0.002*math.Sin(float64(i*7+vi))))
			}
			set.Points = append(set.Points, p)
		}
	}
	return set
}

func TestGroupTableKnobColumns(t *testing.T) {
	r, _ := load(t, "zen4.txt")
	g := r.FindGroup("", "test.fixed", 0)
	var b bytes.Buffer
	writeGroupTable(&b, g)
	table := b.String()
	for _, want := range []string{"<th>isa<th>unroll<th>align<th>median", "<tr class=win><td>avx512vl<td>2<td>64<td>", "<td colspan=3>ext=ref"} {
		if !strings.Contains(table, want) {
			t.Errorf("group table lacks %q:\n%s", want, table)
		}
	}
}
