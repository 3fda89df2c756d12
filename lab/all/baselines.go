package all

import _ "github.com/tunelab/tunelab/kernels/baselines"
