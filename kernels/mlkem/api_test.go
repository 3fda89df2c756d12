package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// TestAPI checks the public functions (whatever variant dispatch chose)
// against the generic code.
func TestAPI(t *testing.T) { nttfieldtest.API(t, field) }

// TestAPIUnderMasks reruns TestAPI in subprocesses with CPU features masked
// and with variants forced, so that every dispatch path of the public API
// is exercised on this host.
func TestAPIUnderMasks(t *testing.T) { nttfieldtest.APIUnderMasks(t, field) }
