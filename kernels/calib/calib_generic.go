package calib

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/variant"
)

// kernelName is the dispatch name of the calibration kernel.
const kernelName = "calib"

func init() {
	variant.RegisterKernel(variant.Kernel{
		Name:       kernelName,
		Family:     "calib",
		Bench:      "Calib",
		Unit:       "add",
		UnitsPerOp: func(int) float64 { return BaseLen },
		Doc:        "calibration: dependent chain of single-cycle adds (planted eps=1,2,5% variants)",
	})
	variant.Register(newVariant(variant.GenericName, BaseLen, func(n int, x, k uint64) uint64 {
		return chainGeneric(n, x, k, BaseLen)
	}, "", 0))
	registerAsm()
}

// chainGeneric adds k to x length times per iteration, n iterations.
func chainGeneric(n int, x, k uint64, length int) uint64 {
	for i := 0; i < n; i++ {
		for j := 0; j < length; j++ {
			x += k
		}
	}
	return x
}

// chainFunc is the signature shared by every chain implementation.
type chainFunc func(n int, x, k uint64) uint64

// newVariant describes a chain implementation of the given length.
func newVariant(name string, length int, fn chainFunc, symbol string, codeBytes int) variant.Variant {
	return variant.Variant{
		Kernel:    kernelName,
		Name:      name,
		Symbol:    symbol,
		LoopLabel: loopLabel(symbol),
		CodeBytes: codeBytes,
		New: func(_ int, seed uint64) variant.Instance {
			return &instance{name: name, fn: fn, length: length, x: seed, k: seed*0x9e3779b97f4a7c15 | 1}
		},
		Verify: func(_ int, seed uint64) error { return verify(name, fn, length, seed) },
	}
}

func loopLabel(symbol string) string {
	if symbol == "" {
		return ""
	}
	return "loop"
}

// An instance holds the accumulator a variant runs on.
type instance struct {
	name   string
	fn     chainFunc
	length int
	x, k   uint64
}

// Run executes n ops, feeding the result back so nothing is dead code.
func (in *instance) Run(n int) { in.x = in.fn(n, in.x, in.k) }

// Check compares one fresh run against the reference.
func (in *instance) Check() error {
	return compare(in.name, in.fn, in.length, 3, in.x, in.k, fmt.Sprintf("post-run state x=%#x k=%#x", in.x, in.k))
}

// verify runs edge-case and pseudo-random inputs through fn.
func verify(name string, fn chainFunc, length int, seed uint64) error {
	edges := []struct {
		n    int
		x, k uint64
	}{
		{0, 0, 0}, {0, 12345, 1}, {1, 0, 1}, {1, ^uint64(0), 1}, {2, 1, ^uint64(0)}, {5, 1 << 63, 1 << 63},
	}
	for i, e := range edges {
		if err := compare(name, fn, length, e.n, e.x, e.k, fmt.Sprintf("edge case #%d (n=%d x=%#x k=%#x)", i, e.n, e.x, e.k)); err != nil {
			return err
		}
	}
	s := seed
	for i := 0; i < 64; i++ {
		x, k := splitmix(&s), splitmix(&s)
		n := int(splitmix(&s) % 4)
		if err := compare(name, fn, length, n, x, k, fmt.Sprintf("random #%d (seed %#x)", i, seed)); err != nil {
			return err
		}
	}
	return nil
}

// compare runs fn and the reference on one input; index 0 is the only
// output word.
func compare(name string, fn chainFunc, length, n int, x, k uint64, input string) error {
	got, want := fn(n, x, k), chainGeneric(n, x, k, length)
	if got != want {
		return &variant.Mismatch{Kernel: kernelName, Variant: name, Input: input, Index: 0,
			Got: fmt.Sprintf("%#x", got), Want: fmt.Sprintf("%#x", want)}
	}
	return nil
}

// splitmix is the SplitMix64 generator.
func splitmix(s *uint64) uint64 {
	*s += 0x9e3779b97f4a7c15
	z := *s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
