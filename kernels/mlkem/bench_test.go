package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

func BenchmarkMLKEMNTT(b *testing.B)    { nttfieldtest.BenchKernel(b, "mlkem.ntt") }
func BenchmarkMLKEMInvNTT(b *testing.B) { nttfieldtest.BenchKernel(b, "mlkem.invntt") }
func BenchmarkMLKEMMulNTT(b *testing.B) { nttfieldtest.BenchKernel(b, "mlkem.mulntt") }

// BenchmarkAPI measures the public functions (the dispatched variant).
func BenchmarkAPI(b *testing.B) { nttfieldtest.BenchAPI(b, field) }
