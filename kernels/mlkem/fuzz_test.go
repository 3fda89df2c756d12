package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// FuzzVariants compares every runnable variant of every kernel with the
// generic code on inputs derived from the fuzz bytes.
func FuzzVariants(f *testing.F) { nttfieldtest.FuzzVariants(f, field) }
