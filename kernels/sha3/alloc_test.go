package sha3

import (
	"fmt"
	"testing"
)

// TestAllocs checks that the one-shot functions keep their states, and
// the caller's stack message, on the stack (SumSHAKE allocates only its
// output), that the many-stream functions allocate nothing for every NR,
// and that the streaming types allocate only themselves.
func TestAllocs(t *testing.T) {
	heapMsg := make([]byte, 1000)
	var d32 [32]byte
	var d64 [64]byte
	var sum []byte
	buf := make([]byte, 0, 64)
	out := make([]byte, 300)
	ins, outs := equalStreams(nil, 9, 34, 504)
	cases := []struct {
		name string
		want float64
		f    func()
	}{
		{"Sum256 of a stack message", 0, func() {
			var msg [300]byte
			msg[7] = 1
			d32 = Sum256(msg[:])
		}},
		{"Sum512 of a stack message", 0, func() {
			var msg [300]byte
			msg[7] = 1
			d64 = Sum512(msg[:])
		}},
		{"Sum256 of 1000 bytes", 0, func() { d32 = Sum256(heapMsg) }},
		{"Sum512 of 1000 bytes", 0, func() { d64 = Sum512(heapMsg) }},
		{"SumSHAKE128 (the output only)", 1, func() { sum = SumSHAKE128(heapMsg, 200) }},
		{"SumSHAKE256 (the output only)", 1, func() { sum = SumSHAKE256(heapMsg[:10], 64) }},
		{"SHAKE128Many of 9 streams", 0, func() { SHAKE128Many(outs, ins) }},
		{"SHAKE256Many of 9 streams", 0, func() { SHAKE256Many(outs, ins) }},
		{"New256, Write, Sum into capacity (the hasher only)", 1, func() {
			h := New256()
			h.Write(heapMsg[:77])
			h.Write(heapMsg[77:])
			buf = h.Sum(buf[:0])
		}},
		{"NewSHAKE128, Write, Read (the XOF only)", 1, func() {
			h := NewSHAKE128()
			h.Write(heapMsg)
			h.Read(out)
		}},
		{"NewCSHAKE256, Write, Read (the XOF only)", 1, func() {
			h := NewCSHAKE256([]byte("N"), []byte("S"))
			h.Write(heapMsg)
			h.Read(out)
		}},
	}
	for _, k := range manyKernels {
		for _, nr := range runnableWays(t) {
			cases = append(cases, struct {
				name string
				want float64
				f    func()
			}{fmt.Sprintf("%s nr=%d", k.name, nr), 0, func() { k.runWays(nr, outs, ins) }})
		}
	}
	for _, c := range cases {
		if got := testing.AllocsPerRun(20, c.f); got > c.want {
			t.Errorf("%s: %v allocations per call, want at most %v", c.name, got, c.want)
		}
	}
	_, _, _ = d32, d64, sum
}
