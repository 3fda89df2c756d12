package all

import (
	_ "github.com/tunelab/tunelab/kernels/mldsa"
	_ "github.com/tunelab/tunelab/kernels/mlkem"
)
