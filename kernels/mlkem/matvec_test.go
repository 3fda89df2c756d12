package mlkem

import (
	"testing"

	"github.com/tunelab/tunelab/lab/anchorbench"
)

// BenchmarkMLKEMMulCache and BenchmarkMLKEMMatVec time every runnable
// variant (median per call).
func BenchmarkMLKEMMulCache(b *testing.B) { anchorbench.Kernel(b, "mlkem.mulcache") }
func BenchmarkMLKEMMatVec(b *testing.B)   { anchorbench.Kernel(b, "mlkem.matvec") }
