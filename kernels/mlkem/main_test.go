package mlkem

import (
	"os"
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// TestMain registers every generated variant (RegisterVariants), so that
// the tests see the lab tables, not only the production ones.
func TestMain(m *testing.M) { os.Exit(nttfieldtest.Main(m, RegisterVariants)) }

// TestProductionInit checks, in a subprocess that leaves RegisterVariants
// to the test, that init registers and dispatches among the generic code
// and the production tables only, and RegisterVariants among every
// generated variant.
func TestProductionInit(t *testing.T) { nttfieldtest.ProductionInit(t, field, RegisterVariants) }
