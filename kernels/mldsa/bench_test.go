package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

func BenchmarkMLDSANTT(b *testing.B)    { nttfieldtest.BenchKernel(b, "mldsa.ntt") }
func BenchmarkMLDSAInvNTT(b *testing.B) { nttfieldtest.BenchKernel(b, "mldsa.invntt") }
func BenchmarkMLDSAMulNTT(b *testing.B) { nttfieldtest.BenchKernel(b, "mldsa.mulntt") }

// BenchmarkAPI measures the public functions (the dispatched variant).
func BenchmarkAPI(b *testing.B) { nttfieldtest.BenchAPI(b, field) }
