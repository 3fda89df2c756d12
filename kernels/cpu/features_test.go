package cpu

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestFeatureNamesDocumented checks that the package comment lists every
// feature name, and only known ones.
func TestFeatureNamesDocumented(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	start := strings.Index(text, "# Feature names")
	end := strings.Index(text, "# Masks")
	if start < 0 || end < start {
		t.Fatal("doc.go lacks the Feature names section")
	}
	section := strings.ReplaceAll(text[start:end], "//", "")
	for _, f := range featureTable {
		if !regexp.MustCompile(`\b` + f.name + `\b`).MatchString(section) {
			t.Errorf("feature %q missing from doc.go", f.name)
		}
	}
	for _, w := range regexp.MustCompile(`\b[a-z0-9]+\b`).FindAllString(section, -1) {
		if _, ok := featureIndex[w]; !ok && strings.ContainsAny(w, "0123456789") {
			t.Errorf("doc.go names %q, which is not a known feature", w)
		}
	}
}

func TestRequiresKnownNames(t *testing.T) {
	for k, vs := range requires {
		if _, ok := SetOf(append([]string{k}, vs...)...); !ok {
			t.Errorf("requires[%q] = %v names an unknown feature", k, vs)
		}
	}
}
