package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// TestVariantsBitExact compares every runnable assembly variant with the
// generic code on boundary inputs and random polynomials.
func TestVariantsBitExact(t *testing.T) { nttfieldtest.VariantsBitExact(t, field) }

// TestRegistered checks that every kernel has its generic variant and
// every table entry is registered.
func TestRegistered(t *testing.T) { nttfieldtest.Registered(t, field) }

// TestMulAliasing checks MulNTT variants with the output aliasing an input.
func TestMulAliasing(t *testing.T) { nttfieldtest.MulAliasing(t, field) }

// TestGuardPages runs every variant on polynomials next to inaccessible
// pages.
func TestGuardPages(t *testing.T) { nttfieldtest.GuardPages(t, field) }
