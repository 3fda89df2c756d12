//go:build !purego

package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) { nttfieldtest.GeneratedFeatures(t, field, "mldsa_amd64.s") }
