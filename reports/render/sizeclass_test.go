package render

import (
	"strings"
	"testing"

	"github.com/tunelab/tunelab/reports"
)

// TestSizeClassesWriters checks that the text, Markdown and HTML size
// class sections describe classes alike: the ranges where a size has a
// winner, "no winner at any size" where none has.
func TestSizeClassesWriters(t *testing.T) {
	m := &reports.Model{Key: "GenuineIntel/0x06/0xcf", Uarch: "Emerald Rapids"}
	r := &reports.Report{Set: &reports.Set{Models: []*reports.Model{m}}, Classes: []*reports.SizeClasses{
		{Model: m, Kernel: "k.won", Classes: []reports.Class{{Variant: "isa=avx2"}}},
		{Model: m, Kernel: "k.none"},
	}}
	want := []string{"all sizes: isa=avx2", "no winner at any size"}
	writers := map[string]func(*strings.Builder){
		"text":     func(b *strings.Builder) { report{r}.writeSectionsText(b) },
		"markdown": func(b *strings.Builder) { report{r}.writeClassesMD(b) },
		"html":     func(b *strings.Builder) { report{r}.writeClassesHTML(b) },
	}
	for name, write := range writers {
		var b strings.Builder
		write(&b)
		for _, w := range want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%s size classes lack %q:\n%s", name, w, b.String())
			}
		}
	}
}
