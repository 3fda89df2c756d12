package main

import (
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

var (
	compileOnce  sync.Once
	compiledFile *ir.File
	compileErr   error
)

// compiled builds every variant once into avo's global context (which
// every build adds to) and returns the compiled file and its data.
func compiled(t *testing.T) (*ir.File, bounds.Data) {
	t.Helper()
	compileOnce.Do(func() {
		b := &famgen.Builder{Consts: vecgen.NewConsts("cbdconst")}
		build(b)
		b.Consts.Emit()
		compiledFile, compileErr = avogen.Compile()
	})
	if compileErr != nil {
		t.Fatal(compileErr)
	}
	return compiledFile, bounds.DataOf(compiledFile)
}

// TestBoundsSemanticsMatchSpec runs the range analysis on concrete
// inputs (every byte a constant) over every mlkem.cbd2 variant and
// compares its exact output lanes with SamplePolyCBD_2 (FIPS 203
// Algorithm 8): f[i] = b(4i) + b(4i+1) − b(4i+2) − b(4i+3) mod q, the
// bits b of the input (whose agreement with the compiled variants
// kernels/internal/polysample's tests check): a wrong model of the zero
// extension, the OR of two lanes of one byte or the parts of a dword
// would disagree.
func TestBoundsSemanticsMatchSpec(t *testing.T) {
	file, d := compiled(t)
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

// analyzeConcrete runs the analysis of fn with kernel's contract on the
// concrete bytes in as parameter b (and scalars, if any, as given) and
// returns its exact output lanes, failing t unless it is proven and
// every lane is one value.
func analyzeConcrete(t *testing.T, fn *ir.Function, d bounds.Data, kernel string, in []byte, scalars ...bounds.Param) map[string][]int64 {
	t.Helper()
	k, _ := contract.Of(kernel)
	ps := bounds.ParamsOf(k)
	for i := range ps {
		if ps[i].Name == "b" {
			for _, x := range in {
				ps[i].Values = append(ps[i].Values, int64(x))
			}
			ps[i].Values = append(ps[i].Values, make([]int64, ps[i].Lanes-len(in))...)
		}
	}
	res := bounds.Analyze(fn, d, append(ps, scalars...))
	if res.Status != bounds.Proven {
		t.Fatalf("%s on a concrete input: %s (%v)", fn.Name, res.Status, res.Finding)
	}
	out := map[string][]int64{}
	for arg, ls := range res.Lanes {
		for j, l := range ls {
			if l.Lo != l.Hi {
				t.Fatalf("%s %s[%d]: analysis %v on a concrete input", fn.Name, arg, j, l)
			}
			out[arg] = append(out[arg], l.Lo)
		}
	}
	return out
}

// TestBoundsSemanticsCBD3ExpandMask runs the analysis on concrete
// inputs over every mlkem.cbd3 and mldsa.expandmask variant and compares
// its exact output lanes with SamplePolyCBD_3 (coefficient i: the sum of
// bits 6i..6i+2 less that of bits 6i+3..6i+5, mod q) and with BitUnpack
// (y[i] = γ1 − field i of bits bits, yHat the same mod q, for bits 18
// and 20), computed here bit by bit: a wrong model of VPINSRD, VMOVQ,
// VPSHUFB and VPERMB gathering the bytes (gather), of the masked load,
// of VPSRLVD's per-lane counts or of the masks would disagree.
func TestBoundsSemanticsCBD3ExpandMask(t *testing.T) {
	file, d := compiled(t)
	r := rand.New(rand.NewPCG(10, 11))
	random := func(n int) []byte {
		in := make([]byte, n)
		for j := range in {
			in[j] = byte(r.Uint32())
		}
		return in
	}
	bitOf := func(in []byte, i int) int64 { return int64(in[i/8] >> (i % 8) & 1) }
	field := func(in []byte, i, w int) int64 {
		var v int64
		for k := w - 1; k >= 0; k-- {
			v = v<<1 | bitOf(in, i*w+k)
		}
		return v
	}
	checked := 0
	for _, fn := range file.Functions() {
		switch {
		case strings.HasPrefix(fn.Name, "cbd3_"):
			in := random(192)
			got := analyzeConcrete(t, fn, d, "mlkem.cbd3", in)
			for i := range 256 {
				x := bitOf(in, 6*i) + bitOf(in, 6*i+1) + bitOf(in, 6*i+2)
				y := bitOf(in, 6*i+3) + bitOf(in, 6*i+4) + bitOf(in, 6*i+5)
				if want := (x - y + contract.QKEM) % contract.QKEM; got["f"][i] != want {
					t.Fatalf("%s f[%d]: analysis %d, spec %d", fn.Name, i, got["f"][i], want)
				}
			}
			checked++
		case strings.HasPrefix(fn.Name, "expandmask_"):
			for _, w := range []int{18, 20} {
				in := random(32 * w)
				got := analyzeConcrete(t, fn, d, "mldsa.expandmask", in, bounds.Param{Name: "bits", Scalar: true, Value: int64(w)})
				g1 := int64(1) << (w - 1)
				for i := range 256 {
					y := g1 - field(in, i, w)
					if got["y"][i] != y || got["yHat"][i] != (y+contract.QDSA)%contract.QDSA {
						t.Fatalf("%s bits %d y[%d], yHat[%d]: analysis %d, %d, spec %d", fn.Name, w, i, i, got["y"][i], got["yHat"][i], y)
					}
				}
				checked++
			}
		}
	}
	if checked != 12 {
		t.Fatalf("%d runs checked, want 12 (4 cbd3, 4 expandmask at 2 widths)", checked)
	}
}
