package render

import (
	"bytes"
	"strings"
	"testing"
)

// TestSummaryInTextAndMarkdown checks that both reports open with the
// summary, before the first kernel section.
func TestSummaryInTextAndMarkdown(t *testing.T) {
	r, _ := load(t, "zen4.txt", "spr.txt")
	var text, md bytes.Buffer
	if err := WriteText(&text, r); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&md, r); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, out, summary, first string }{
		{"text", text.String(), "Summary: winner per size class", "\ntest.fixed\n"},
		{"Markdown", md.String(), "## Summary", "### test.fixed"},
	} {
		s, f := strings.Index(c.out, c.summary), strings.Index(c.out, c.first)
		if s < 0 || f < s {
			t.Errorf("%s report: summary at %d, first kernel section at %d", c.name, s, f)
		}
		if !strings.Contains(c.out, "2.00× [") {
			t.Errorf("%s summary lacks the 2.00× speed-up of isa=scalar at 64 B", c.name)
		}
	}
}
