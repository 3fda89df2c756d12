package all

import (
	// Plan holds override warnings from before any family's init until
	// every lab variant is registered (zfamilies.go releases them).
	_ "github.com/tunelab/tunelab/internal/labinit"

	// The generated variants production does not link, whose lab tables
	// the families' RegisterVariants take (variant.LabTable).
	_ "github.com/tunelab/tunelab/lab/variants"
)
