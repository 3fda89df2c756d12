//go:build !purego

package calib

import (
	"testing"

	"github.com/tunelab/tunelab/lab/asmtest"
)

// TestGeneratedFeatures checks every chain's declared CPU features against
// avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "calib_amd64.s", asmtest.Family("calib"), asmtest.OwnSymbol)
}
