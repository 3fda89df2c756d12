package main

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// TestBoundsSemanticsMatchSpec runs the range analysis on concrete
// inputs (every byte a constant) over every mlkem.cbd2 variant and
// compares its exact output lanes with SamplePolyCBD_2 (FIPS 203
// Algorithm 8): f[i] = b(4i) + b(4i+1) − b(4i+2) − b(4i+3) mod q, the
// bits b of the input (whose agreement with the compiled variants
// kernels/internal/polysample's tests check): a wrong model of the zero
// extension, the OR of two lanes of one byte or the parts of a dword
// would disagree.
func TestBoundsSemanticsMatchSpec(t *testing.T) {
	b := &famgen.Builder{Consts: vecgen.NewConsts("cbdconst")}
	build(b)
	b.Consts.Emit()
	file, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(file)
	k, _ := contract.Of("mlkem.cbd2")
	r := rand.New(rand.NewPCG(9, 9))
	checked := 0
	for _, fn := range file.Functions() {
		if !strings.HasPrefix(fn.Name, "cbd2_") {
			continue
		}
		var in [128]byte
		vs := make([]int64, 128)
		for j := range in {
			in[j] = byte(r.Uint32())
			vs[j] = int64(in[j])
		}
		bit := func(i int) int64 { return int64(in[i/8] >> (i % 8) & 1) }
		ps := bounds.ParamsOf(k)
		ps[1].Values = vs
		res := bounds.Analyze(fn, d, ps)
		if res.Status != bounds.Proven {
			t.Fatalf("%s on a concrete input: %s (%v)", fn.Name, res.Status, res.Finding)
		}
		for i, l := range res.Lanes["f"] {
			want := (bit(4*i) + bit(4*i+1) - bit(4*i+2) - bit(4*i+3) + contract.QKEM) % contract.QKEM
			if l.Lo != l.Hi || l.Lo != want {
				t.Fatalf("%s f[%d]: analysis %v, spec %d", fn.Name, i, l, want)
			}
		}
		checked++
	}
	if checked != 6 {
		t.Fatalf("%d cbd2 variants checked, want 6", checked)
	}
}
