package all

import _ "github.com/tunelab/tunelab/lab/baselines"
