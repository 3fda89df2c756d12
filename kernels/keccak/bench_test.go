package keccak

import (
	"crypto/sha3"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cloudflare/circl/simd/keccakf1600"
	"github.com/tunelab/tunelab/kernels/variant"
)

var benchAll = flag.Bool("keccak.all", false, "benchmark every variant, not only the selected ones")

// contender reports whether m is among the variants benchmarked by
// default: fastest logic of its ISA (every scalar and AVX2 logic),
// default transpose, align=64; every unroll depth and register
// allocation.
func contender(m *impl) bool { return contenderName(m.Name) }

// contenderName is contender for a variant name (sha3.256's are
// keccak.x1's).
func contenderName(name string) bool {
	v := variant.Variant{Name: name}
	logic := v.Knob("rot") + v.Knob("chi")
	return v.Knob("align") == "64" && (v.Knob("xpose") == "" || v.Knob("xpose") == "unpack") &&
		(logic == "" || logic == "prolternlog" || logic == "prolvternlog" || v.Knob("isa") == "avx2" || v.Knob("isa") == "scalar")
}

// benchKernel benchmarks the selected variant, the generic code, the
// contenders and, with -keccak.all, every runnable non-sweep variant of
// kernel nr; ns/perm is reported per permutation.
func benchKernel(b *testing.B, nr int, ext map[string]func(b *testing.B)) {
	for _, m := range runnable(b, nr) {
		if m.OffsetSweep || !*benchAll && !contender(m) && m.Name != selectedOf(nr) && m.Name != variant.GenericName {
			continue
		}
		b.Run(m.Name, func(b *testing.B) {
			s := make([][25]uint64, nr)
			for b.Loop() {
				m.run(s)
			}
			perPerm(b, nr)
		})
	}
	for name, f := range ext {
		b.Run(name, f)
	}
}

func perPerm(b *testing.B, nr int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*nr), "ns/perm")
}

// benchSHA3 squeezes SHAKE128 168 bytes (one permutation) per op.
func benchSHA3(b *testing.B) {
	h := sha3.NewSHAKE128()
	buf := make([]byte, 168)
	h.Read(buf)
	for b.Loop() {
		h.Read(buf)
	}
	perPerm(b, 1)
}

// benchCircl runs circl's StateX4.Permute on its own lane-interleaved
// buffer (no transposition from the state-major layout is counted).
func benchCircl(b *testing.B) {
	var st keccakf1600.StateX4
	st.Initialize(false)
	for b.Loop() {
		st.Permute()
	}
	perPerm(b, 4)
}

// benchCirclXpose adds what a caller with state-major states pays:
// transposing into circl's layout and back around every permutation.
func benchCirclXpose(b *testing.B) {
	var st keccakf1600.StateX4
	lanes := st.Initialize(false)
	var a [4][25]uint64
	for b.Loop() {
		for j := range a {
			for i, v := range a[j] {
				lanes[4*i+j] = v
			}
		}
		st.Permute()
		for j := range a {
			for i := range a[j] {
				a[j][i] = lanes[4*i+j]
			}
		}
	}
	perPerm(b, 4)
}

func BenchmarkKeccakX1(b *testing.B) {
	benchKernel(b, 1, map[string]func(*testing.B){"ext=sha3": benchSHA3})
}
func BenchmarkKeccakX2(b *testing.B) {
	benchKernel(b, 2, map[string]func(*testing.B){"ext=sha3": benchSHA3})
}
func BenchmarkKeccakX4(b *testing.B) {
	benchKernel(b, 4, map[string]func(*testing.B){"ext=circl": benchCircl, "ext=circl-xpose": benchCirclXpose})
}
func BenchmarkKeccakX8(b *testing.B) {
	benchKernel(b, 8, map[string]func(*testing.B){"ext=circl": benchCircl})
}

// BenchmarkSHA3_256 measures SHA3-256 of messages of the sha3.256
// kernel's sizes: crypto/sha3, AbsorbBlocks' plan ("dispatch"), the
// generic code, the variants AbsorbBlocks plans, the contenders and, with
// -keccak.all, every runnable variant.
func BenchmarkSHA3_256(b *testing.B) {
	dispatched := &absorber{variant.Impl[absorbFunc]{Name: "dispatch", Fn: func(a *[25]uint64, data []byte, rate int) {
		AbsorbBlocks(a, data, rate)
	}}}
	var st sha3State
	for _, size := range sha3Sizes {
		msg := randomBytes(rand.New(rand.NewPCG(1, uint64(size))), size)
		run := func(name string, f func()) {
			b.Run(fmt.Sprintf("%s/size=%d", name, size), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					f()
				}
			})
		}
		run("ext=sha3", func() { st.out = sha3.Sum256(msg) })
		for _, m := range append([]*absorber{dispatched}, absorbers()...) {
			if len(missingFeatures(m.Features)) == 0 && benchAbsorber(m) {
				run(m.Name, func() { m.digest(&st, msg) })
			}
		}
	}
}

// benchAbsorber reports whether BenchmarkSHA3_256 measures m.
func benchAbsorber(m *absorber) bool {
	planned := slices.ContainsFunc(absorbPlan(), func(c absorbChoice) bool { return c.name == m.Name })
	return *benchAll || planned || contenderName(m.Name) || m.Symbol == ""
}
