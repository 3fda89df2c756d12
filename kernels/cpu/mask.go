package cpu

import (
	"fmt"
	"strings"
)

// parseMask parses a TUNELAB_CPU value into the set of features to hide
// (closed under requires: see maskClosure) and a warning per ignored entry.
func parseMask(spec string) (FeatureSet, []string) {
	var m FeatureSet
	var warnings []string
	for _, entry := range SplitList(spec) {
		name, value, ok := strings.Cut(entry, "=")
		name, value = strings.TrimSpace(name), strings.TrimSpace(value)
		switch {
		case !ok || value != "off":
			warnings = append(warnings, fmt.Sprintf("%s entry %q ignored: want feature=off", EnvCPU, entry))
		case name == "all":
			m |= allFeatures
		default:
			s, known := SetOf(name)
			if !known {
				warnings = append(warnings, fmt.Sprintf("%s entry %q ignored: unknown feature %q", EnvCPU, entry, name))
				continue
			}
			m |= s
		}
	}
	return maskClosure(m), warnings
}

// SplitList splits a comma-separated list as TUNELAB_CPU entries,
// feature lists and the lab's command-line lists are written: each item
// trimmed of spaces, empty items dropped; nil for a list with no items.
func SplitList(s string) []string {
	var out []string
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}
