package mldsa

// The generated variants production does not link, which RegisterVariants
// registers from their lab tables (variant.LabTable) in tests.
import (
	_ "github.com/tunelab/tunelab/lab/variants/mldsa"
	_ "github.com/tunelab/tunelab/lab/variants/polypack"
	_ "github.com/tunelab/tunelab/lab/variants/polysample"
)
