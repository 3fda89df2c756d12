package reports

import (
	"fmt"
	"sort"
	"strings"

	"github.com/tunelab/tunelab/lab/catalog"
)

// readRenames returns the renames the reader applies (a variable for
// tests).
var readRenames = catalog.Renames

// nameCounts counts what today did to one file's names.
type nameCounts struct {
	renamed, gone map[string]int // "kernel variant" (old name) -> results
}

// today maps a result's kernel and variant onto today's names
// (lab/catalog's renames). A tunelab sweep's result (ours) of a kernel
// today's catalog has, whose variant the catalog no longer has, is left
// out (counted, reported once per file) and ok is false: a variant that
// is gone is never turned into a pick. Kernels the catalog does not
// know (other tools' files, test kernels) are kept as they are.
func (fr *fileRead) today(kernel, variant string, ours bool) (string, string, bool) {
	k, v := catalog.Apply(readRenames(), kernel, variant)
	if k != kernel || v != variant {
		fr.names.count(&fr.names.renamed, kernel+" "+variant)
	}
	if ours && catalog.LookupKernel(k) != nil && catalog.Lookup(k, v) == nil {
		fr.names.count(&fr.names.gone, k+" "+v)
		return k, v, false
	}
	return k, v, true
}

func (n *nameCounts) count(m *map[string]int, key string) {
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[key]++
}

// warnings reports the file's renamed and gone names, once each kind:
// how many variants and results, and a few examples.
func (n *nameCounts) warnings(path string) []string {
	var out []string
	if len(n.renamed) > 0 {
		out = append(out, fmt.Sprintf("%s: %s of an older commit mapped onto today's names (lab/catalog renames), e.g. %s",
			path, countOf(n.renamed), examples(n.renamed)))
	}
	if len(n.gone) > 0 {
		out = append(out, fmt.Sprintf("%s: %s that today's tunelab no longer has left out (no rename maps them), e.g. %s",
			path, countOf(n.gone), examples(n.gone)))
	}
	return out
}

// countOf says "N variants (M results)".
func countOf(m map[string]int) string {
	results := 0
	for _, c := range m {
		results += c
	}
	return fmt.Sprintf("%s (%s)", Plural(len(m), "variant"), Plural(results, "result"))
}

// examples lists the first three keys of m in order.
func examples(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	if len(keys) > 3 {
		keys = append(keys[:3], "…")
	}
	return strings.Join(keys, "; ")
}

// Plural formats "1 pair" or "4 pairs".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
