//go:build !purego

package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) { nttfieldtest.GeneratedFeatures(t, field, "mlkem_amd64.s") }
