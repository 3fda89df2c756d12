package render

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/internal/fixtures"
)

// TestMarkdownEscapesFileText covers issue 28's `report --md` writing
// <script> and <svg/onload=...> from a file unescaped: Markdown escapes
// file text as the HTML report does, and a pipe or backtick in a name
// cannot break a table or a code span.
func TestMarkdownEscapesFileText(t *testing.T) {
	var b strings.Builder
	b.WriteString("goos: linux\ncpu: <script>alert(1)</script>\n")
	for i := 0; i < 10; i++ {
		b.WriteString("BenchmarkX/<script>alert(1)</script>-8 1000 5 ns/op\n")
		b.WriteString("BenchmarkX/<svg/onload=alert(1)>-8 1000 6 ns/op\n")
		b.WriteString("BenchmarkX/a|b`c*d_e[f](javascript:x)-8 1000 7 ns/op\n")
		b.WriteString("Benchmark<img/src=x>-8 1000 8 ns/op\n")
	}
	set, _, err := reports.Read([]string{fixtures.WriteFile(t, "xss.txt", b.String())})
	if err != nil {
		t.Fatal(err)
	}
	var md strings.Builder
	if err := WriteMarkdown(&md, reports.Analyze(set, reports.DefaultOptions())); err != nil {
		t.Fatal(err)
	}
	out := md.String()
	for _, bad := range []string{"<script", "<svg", "<img", "a|b", "`c", "](javascript", "*d", "_e"} {
		if unescaped(out, bad) {
			t.Errorf("Markdown contains %q from the file unescaped:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "&lt;script&gt;") {
		t.Errorf("Markdown lacks the escaped variant name:\n%s", out)
	}
	unescapedPipe := regexp.MustCompile(`(^|[^\\])\|`)
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Contains(line, "ns") {
			if n := len(unescapedPipe.FindAllString(line, -1)); n != 7 {
				t.Errorf("table row with %d cell separators, want 7 (6 cells): %s", n, line)
			}
		}
	}
}

func TestMarkdownCodeSpans(t *testing.T) {
	for in, want := range map[string]string{
		"isa=avx2/unroll=4/align=64": "`isa=avx2/unroll=4/align=64`",
		"a`b":                        "a\\`b",
		"<b>":                        "&lt;b&gt;",
		"x|y":                        "x\\|y",
	} {
		if got := mdCode(in); got != want {
			t.Errorf("mdCode(%q) = %q, want %q", in, got, want)
		}
	}
}

// unescaped reports whether s occurs in out without a backslash before it.
func unescaped(out, s string) bool {
	for i := strings.Index(out, s); i >= 0; {
		if i == 0 || out[i-1] != '\\' {
			return true
		}
		j := strings.Index(out[i+1:], s)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
