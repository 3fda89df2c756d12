package harness

import "github.com/tunelab/tunelab/kernels/cpu"

// This file isolates what the harness needs of the host: feature checks
// with masks.

// hostHas reports whether the host (with TUNELAB_CPU masks) has feature f.
func hostHas(f string) bool { return cpu.Has(f) }
