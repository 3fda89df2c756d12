package dispatch

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// EnvDispatch is the environment variable of the overrides Plan applies
// (see the package comment).
const EnvDispatch = "TUNELAB_DISPATCH"

// parseOverrides parses a TUNELAB_DISPATCH value into kernel -> variant
// ("generic" becomes the generic variant's name; a later entry for the same
// kernel wins) and a warning per ignored entry and per entry naming a
// kernel no tunelab package plans (a typo).
func parseOverrides(spec string) (map[string]string, []string) {
	out := map[string]string{}
	var warnings []string
	for _, entry := range cpu.SplitList(spec) {
		kernel, v, ok := strings.Cut(entry, "=")
		kernel, v = strings.TrimSpace(kernel), strings.TrimSpace(v)
		if !ok || kernel == "" || v == "" {
			warnings = append(warnings, fmt.Sprintf("%s entry %q ignored: want kernel=variant", EnvDispatch, entry))
			continue
		}
		if !KnownKernel(kernel) {
			warnings = append(warnings, fmt.Sprintf("%s entry %q has no effect: no kernel %q (kernels: %s)",
				EnvDispatch, entry, kernel, strings.Join(knownKernels(), ", ")))
		}
		if v == "generic" {
			v = genericName
		}
		out[kernel] = v
	}
	return out, warnings
}
