package calib

import (
	"fmt"
	"strconv"
	"sync"

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
		Doc:        "calibration: dependent chain of single-cycle adds (planted eps=1,2,5% variants; copies of eps=0 at other addresses and loop offsets)",
	})
	registerChain(variant.Impl[chainFunc]{Name: variant.GenericName, Fn: func(n int, x, k uint64) uint64 {
		return chainGeneric(n, x, k, BaseLen)
	}})
}

// RegisterVariants registers the generated chains with kernels/variant for
// the lab (tunelab, its workers, tests); only the lab calls it, so only
// the lab links them. It is idempotent.
func RegisterVariants() { registerOnce.Do(registerAsm) }

var registerOnce sync.Once

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

// registerChain registers a chain implementation; its length comes from
// its eps knob: L = BaseLen·(1+eps/100).
func registerChain(im variant.Impl[chainFunc]) {
	v := im.Variant(kernelName)
	length := chainLength(v.Knob("eps"))
	v.New = func(_ int, seed uint64) variant.Instance {
		return &instance{name: im.Name, fn: im.Fn, length: length, x: seed, k: seed*0x9e3779b97f4a7c15 | 1}
	}
	v.Verify = func(_ int, seed uint64) error { return verify(im.Name, im.Fn, length, seed) }
	variant.Register(v)
}

// chainLength is the chain length of a variant with the eps knob (percent
// of BaseLen; "" for the generic variant).
func chainLength(eps string) int {
	e, _ := strconv.Atoi(eps)
	return BaseLen * (100 + e) / 100
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
