package calib

import (
	"errors"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

func TestVariantsVerify(t *testing.T) {
	vs := variant.Variants(kernelName)
	if len(vs) == 0 {
		t.Fatal("no calib variants registered")
	}
	for _, v := range vs {
		if err := v.Verify(0, 42); err != nil {
			t.Errorf("variant %s: %v", v.Name, err)
		}
		in := v.New(0, 7)
		in.Run(3)
		if err := in.Check(); err != nil {
			t.Errorf("variant %s: check after Run(3): %v", v.Name, err)
		}
	}
}

// TestVerifyCatchesWrongLength plants a chain one add short and requires a
// mismatch naming the variant and input.
func TestVerifyCatchesWrongLength(t *testing.T) {
	short := func(n int, x, k uint64) uint64 { return chainGeneric(n, x, k, BaseLen-1) }
	err := verify("short", short, BaseLen, 1)
	var m *variant.Mismatch
	if !errors.As(err, &m) || m.Variant != "short" || m.Input == "" {
		t.Fatalf("verify of a chain of %d adds against length %d: got %v, want a *variant.Mismatch naming the input", BaseLen-1, BaseLen, err)
	}
}

func TestChainClosedForm(t *testing.T) {
	for _, c := range []struct {
		n    int
		x, k uint64
	}{{0, 5, 9}, {1, 1, 2}, {7, ^uint64(0), 3}} {
		if got, want := Chain(c.n, c.x, c.k), c.x+uint64(c.n)*BaseLen*c.k; got != want {
			t.Errorf("Chain(%d, %#x, %#x) = %#x, want %#x", c.n, c.x, c.k, got, want)
		}
	}
}

func TestPlantedLengths(t *testing.T) {
	want := map[string]int{"isa=amd64/eps=0/align=64": 1000, "isa=amd64/eps=1/align=64": 1010,
		"isa=amd64/eps=2/align=64": 1020, "isa=amd64/eps=5/align=64": 1050,
		"isa=amd64/eps=0/align=64/copy=1": 1000, "isa=amd64/eps=0/align=64/copy=2": 1000, "isa=amd64/eps=0/align=64/copy=3": 1000,
		"isa=amd64/eps=0/align=64+16": 1000, "isa=amd64/eps=0/align=64+32": 1000, "isa=amd64/eps=0/align=64+48": 1000}
	for _, v := range variant.Variants(kernelName) {
		if v.IsGeneric() {
			continue
		}
		in := v.New(0, 0).(*instance)
		if in.length != want[v.Name] {
			t.Errorf("variant %s: chain length %d, want %d", v.Name, in.length, want[v.Name])
		}
		// One op adds k exactly length times.
		if got := in.fn(1, 0, 1); got != uint64(want[v.Name]) {
			t.Errorf("variant %s: one op of k=1 from 0 gives %d, want %d", v.Name, got, want[v.Name])
		}
	}
}
