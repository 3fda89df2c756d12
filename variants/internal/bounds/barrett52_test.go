package bounds

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// barrettHW is what IFMA's Barrett computes on one lane: t = hi52 of the
// product of p's and v's low 52 bits (VPMADD52HUQ into zero), then
// p − lo32(t)·q (VPMULUDQ, VPSUBQ), wrapping in 64 bits.
func barrettHW(p, v, q uint64) int64 {
	const m52 = 1<<52 - 1
	h, l := bits.Mul64(p&m52, v&m52)
	t := (h<<12 | l>>52) & m52
	return int64(p - (t&(1<<32-1))*q)
}

// ifma2HW is mul=ifma2's remainder: t as barrettHW's, then
// p + lo52(t·(2^52 − q)) by VPMADD52LUQ; its low dword.
func ifma2HW(p, v, q uint64) uint32 {
	const m52 = 1<<52 - 1
	h, l := bits.Mul64(p&m52, v&m52)
	t := (h<<12 | l>>52) & m52
	h, l = bits.Mul64(t, (1<<52-q)&m52)
	return uint32(p + l&m52)
}

// TestBarrettRange: for ML-DSA's q and quotients v about 2^52/q (off by
// up to a few thousand), random intervals of p below 2^52, sampled at
// random and at their ends, and every p of small intervals, lie within
// barrettRange's bound; with v = ⌊2^52/q⌋ and p < q², that bound is
// within [0, 2q). mul=ifma2's low dword is that remainder too.
func TestBarrettRange(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2))
	const q = 8380417
	v0 := int64(1<<52) / q
	if lo, hi, ok := barrettRange(0, (q-1)*(q-1), v0, q); !ok || lo < 0 || hi >= 2*q {
		t.Fatalf("v=⌊2^52/q⌋ over [0, (q-1)²]: [%d, %d] %v, want within [0, 2q)", lo, hi, ok)
	}
	for i := range 2000 {
		v := v0 + r.Int64N(8001) - 4000
		pl := r.Int64N(1 << 52)
		ph := min(pl+r.Int64N(1<<50), 1<<52-1)
		if i%4 == 0 {
			ph = min(pl+r.Int64N(4096), 1<<52-1)
		}
		lo, hi, ok := barrettRange(pl, ph, v, q)
		if !ok {
			t.Fatalf("v=%d over [%d, %d]: no range", v, pl, ph)
		}
		n := int64(300)
		if i%4 == 0 {
			n = ph - pl + 1
		}
		for k := range n {
			p := pl + r.Int64N(ph-pl+1)
			switch {
			case i%4 == 0:
				p = pl + k
			case k < 2:
				p = []int64{pl, ph}[k]
			}
			if got := barrettHW(uint64(p), uint64(v), q); got < lo || got > hi {
				t.Fatalf("v=%d p=%d: %d outside [%d, %d]", v, p, got, lo, hi)
			}
			if got := ifma2HW(uint64(p), uint64(v), q); hi-lo < 1<<32 && uint32(int64(got)-lo) > uint32(hi-lo) { // no member of [lo, hi] ≡ got (mod 2^32)
				t.Fatalf("mul=ifma2 v=%d p=%d: low dword %d outside [%d, %d]", v, p, got, lo, hi)
			}
		}
	}
}
