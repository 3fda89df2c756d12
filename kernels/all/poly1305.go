package all

import _ "github.com/tunelab/tunelab/kernels/poly1305"
