//go:build !purego

package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// TestProductionLinksTable checks that the production tables hold every
// variant the compiled dispatch table names (else regenerate: go generate
// ./kernels/...).
func TestProductionLinksTable(t *testing.T) { nttfieldtest.ProductionLinksTable(t, field) }
