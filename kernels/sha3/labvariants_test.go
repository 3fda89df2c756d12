package sha3

// The generated variants production does not link, which RegisterVariants
// registers from their lab tables (variant.LabTable) in tests.
import (
	_ "github.com/tunelab/tunelab/lab/variants/keccak"
)
