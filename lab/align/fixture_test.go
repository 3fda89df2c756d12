package align

import (
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/variant"
)

// testKernel is a fixed-size kernel for synthetic measurements.
var testKernel = &variant.Kernel{Name: "keccak.x4", Family: "keccak", Bench: "KeccakX4", Unit: "perm",
	UnitsPerOp: func(int) float64 { return 4 }}

const testBase = "isa=avx512vl/rot=prol/unroll=2"

// synthetic returns a measurement of offsets (plus align=none when none >
// 0) with n samples each: offset o has median nsAt(o), align=none median
// none, and every sample has uniform noise of ±noise (relative).
func synthetic(offsets []int, nsAt func(int) float64, none float64, n int, noise float64, seed uint64) *Measurement {
	rng := rand.New(rand.NewPCG(seed, 1))
	s := &Set{Kernel: testKernel, Base: testBase}
	var centers []float64
	for _, o := range offsets {
		knob := offsetKnob(o)
		s.Arms = append(s.Arms, &Arm{Align: knob, Offset: o, Variant: &variant.Variant{Kernel: testKernel.Name, Name: testBase + "/align=" + knob},
			Place: Placement{Head: uint64(0x1000 + o), Offset: o, Size: 100, LinesCrossed: (o + 99) / 64}})
		centers = append(centers, nsAt(o))
	}
	if none > 0 {
		s.Arms = append(s.Arms, &Arm{Align: "none", Offset: -1, Variant: &variant.Variant{Kernel: testKernel.Name, Name: testBase + "/align=none"},
			Place: Placement{Head: 0x2011, Offset: 17, Size: 100, LinesCrossed: 1}})
		centers = append(centers, none)
	}
	m := &Measurement{Set: s, Entry: Warm, Samples: make([]Samples, len(s.Arms)), Excluded: make([]string, len(s.Arms)),
		TSCHz: 2e9, Rounds: n}
	for i, c := range centers {
		for range n {
			ns := c * (1 + noise*(2*rng.Float64()-1))
			m.Samples[i].Iters = append(m.Samples[i].Iters, 1000)
			m.Samples[i].Ns = append(m.Samples[i].Ns, ns)
			m.Samples[i].TSC = append(m.Samples[i].TSC, ns*2)
		}
	}
	return m
}

// sweep16 are the default offsets.
var sweep16 = []int{0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60}
