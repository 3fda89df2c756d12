package align

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strings"
	"testing"
)

// elements parses an XML document and counts its elements by name.
func elements(t *testing.T, doc []byte) map[string]int {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	count := map[string]int{}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return count
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v\n%s", err, doc)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if len(count) == 0 && (se.Name.Local != "svg" || se.Name.Space != "http://www.w3.org/2000/svg") {
				t.Fatalf("root element %v, want svg in the SVG namespace", se.Name)
			}
			count[se.Name.Local]++
		}
	}
}

func TestWriteSVGWellFormed(t *testing.T) {
	m := synthetic(sweep16, func(o int) float64 { return 100 + float64(o%16) }, 104, 30, 0.01, 2)
	m.Set.Base = `isa=<odd>&"name"` // must be escaped
	var b bytes.Buffer
	if err := WriteSVG(&b, Analyze(m)); err != nil {
		t.Fatal(err)
	}
	n := elements(t, b.Bytes())
	if n["circle"] != 16 || n["polygon"] != 1 || n["polyline"] != 1 {
		t.Errorf("SVG has %d markers, %d bands, %d lines; want 16, 1, 1", n["circle"], n["polygon"], n["polyline"])
	}
	if !strings.Contains(b.String(), "align=none") || !strings.Contains(b.String(), "stroke-dasharray") {
		t.Error("SVG lacks the dashed align=none line")
	}
	if strings.Contains(b.String(), "href") {
		t.Error("SVG refers to an external resource")
	}
}

func TestWriteSVGInfiniteBounds(t *testing.T) {
	// Two samples per offset give infinite 95% intervals: the band is
	// clipped to the plot, never NaN or Inf coordinates.
	var b bytes.Buffer
	if err := WriteSVG(&b, Analyze(synthetic([]int{0, 8, 16}, func(o int) float64 { return 50 + float64(o) }, 0, 2, 0.01, 1))); err != nil {
		t.Fatal(err)
	}
	elements(t, b.Bytes())
	if s := b.String(); strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Errorf("SVG has non-finite coordinates:\n%s", s)
	}
}

func TestWriteSVGNothingMeasured(t *testing.T) {
	m := synthetic([]int{0}, func(int) float64 { return 1 }, 0, 3, 0, 1)
	m.Excluded[0], m.Samples[0] = "host lacks features", Samples{}
	if err := WriteSVG(io.Discard, Analyze(m)); err == nil {
		t.Error("WriteSVG of a measurement without samples succeeded")
	}
}
