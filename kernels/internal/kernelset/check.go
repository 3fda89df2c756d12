package kernelset

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/variant"
)

// Diff is the comparison most Checks end with: a *variant.Mismatch naming
// kernel, the variant name and input at the first index where got and
// want differ (each value written with fmt.Sprint), or nil where they
// agree. got and want have the same length.
func Diff[E comparable](kernel, name, input string, got, want []E) error {
	for i := range got {
		if got[i] != want[i] {
			return &variant.Mismatch{Kernel: kernel, Variant: name, Input: input, Index: i,
				Got: fmt.Sprint(got[i]), Want: fmt.Sprint(want[i])}
		}
	}
	return nil
}
