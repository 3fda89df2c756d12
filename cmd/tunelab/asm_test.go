package main

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// needCalibAsm skips tests that expect the generated variants (the
// calibration chains stand for all of them): under -tags purego (or off
// amd64) only the generic variants are registered.
func needCalibAsm(t *testing.T) {
	t.Helper()
	if variant.Lookup("calib", "isa=amd64/eps=0/align=64") == nil {
		t.Skip("generated calib variants not built (purego or not amd64)")
	}
}
