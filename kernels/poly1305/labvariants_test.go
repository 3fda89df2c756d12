package poly1305

// The generated variants production does not link, which RegisterVariants
// registers from their lab table (variant.LabTable) in tests.
import (
	_ "github.com/tunelab/tunelab/lab/variants/poly1305"
)
