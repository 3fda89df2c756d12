package all

import (
	// The generated variants production does not link, whose lab tables
	// the families' RegisterVariants take (variant.LabTable).
	_ "github.com/tunelab/tunelab/lab/variants"

	"github.com/tunelab/tunelab/kernels/variant"
)

// planAll plans every registered kernel, now that the lab registered its
// variants: a family plans a kernel at its first call, so without this
// dispatch.Plans (tunelab dispatch, the reports, the align and profile
// bases) would list only the kernels something called.
func planAll() {
	for _, k := range variant.Kernels() {
		if k.Selected != nil {
			k.Selected()
		}
	}
}
