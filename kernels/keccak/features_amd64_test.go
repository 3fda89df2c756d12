//go:build !purego

package keccak

import (
	"testing"

	"github.com/tunelab/tunelab/kernels/internal/asmtest"
)

// TestGeneratedFeatures checks every variant's declared CPU features
// against avo's requirements for its function in the generated assembly.
func TestGeneratedFeatures(t *testing.T) {
	asmtest.CheckFeatures(t, "keccak_amd64.s", asmtest.Family("keccak"), asmtest.OwnSymbol)
}
