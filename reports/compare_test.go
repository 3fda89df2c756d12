package reports

import (
	"bytes"
	"strings"
	"testing"
)

func TestCompareSets(t *testing.T) {
	zen, _, err := Read([]string{fixture("zen4.txt")})
	if err != nil {
		t.Fatal(err)
	}
	spr, _, err := Read([]string{fixture("spr.txt")})
	if err != nil {
		t.Fatal(err)
	}
	rows := CompareSets(zen, spr)
	if len(rows) != 30 {
		t.Fatalf("got %d rows, want 30 (10 test.fixed + 5 variants x 4 sizes)", len(rows))
	}
	for _, r := range rows {
		if r.Name == "TestFixed/isa=avx512vl/unroll=2/align=64" && (r.Delta.Pct < 0.39 || r.Delta.Pct > 0.41 || r.Delta.P >= 0.05) {
			t.Errorf("%s: delta %v, want about +40%% (137.2 -> 192 ns), significant", r.Name, r.Delta)
		}
	}
	// Against itself nothing is significant: every delta prints as "~".
	var b bytes.Buffer
	if err := WriteComparison(&b, "a", "b", CompareSets(zen, zen), 0.05); err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n")[3:] {
		if !strings.HasPrefix(line, "geomean") && !strings.Contains(line, " ~ ") {
			t.Errorf("self-comparison line without ~: %q", line)
		}
	}
}
