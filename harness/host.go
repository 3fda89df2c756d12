package harness

import (
	"os"
	"runtime"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// This file isolates what the harness needs of the host: feature checks
// with masks, and a name for default result files.

// hostHas reports whether the host (with TUNELAB_CPU masks) has feature f.
func hostHas(f string) bool { return cpu.Has(f) }

// hostName returns the host name for default result file names.
func hostName() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return runtime.GOOS
	}
	return h
}
