package main

import (
	"math/rand/v2"
	"testing"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// TestBoundsSemanticsMatchSpec runs the range analysis on concrete
// inputs (every lane a constant) over every mlkem.compress and
// mlkem.decompress variant, for every d, and compares its exact output
// lanes with FIPS 203's ByteEncode_d(Compress_d(f)) and
// Decompress_d(ByteDecode_d(src)) (4.2.1, Algorithms 5, 6), computed here
// bit by bit with Compress_d(x) = ⌈(2^d/q)·x⌋ mod 2^d and Decompress_d(y)
// = ⌈(q/2^d)·y⌋ (whose agreement with the compiled variants
// kernels/internal/polypack's tests check): a wrong model of the
// multiply-shift division (VPMULUDQ, the 64-bit shifts and masks), of the
// packing (VPMADDWD, the byte selections, the truncating VPSLLQ, the ORs,
// VPSRLDQ/VPSLLDQ, VPEXTR*, the masked VPERMB store), of the gather
// (VPSHUFB, VPERMB of a masked load, VPSRLVD) or of the d = 1 paths
// (compares into vectors and opmasks, VPMOVMSKB, KMOVD and the scalar
// store, VPTESTMW and the zeroing move) would disagree.
func TestBoundsSemanticsMatchSpec(t *testing.T) {
	b := &famgen.Builder{Consts: vecgen.NewConsts("packconst")}
	build(b)
	b.Consts.Emit()
	file, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(file)
	r := rand.New(rand.NewPCG(21, 22))
	ck, _ := contract.Of("mlkem.compress")
	dk, _ := contract.Of("mlkem.decompress")
	checked := 0
	for _, fn := range file.Functions() {
		compress := len(fn.Name) > 9 && fn.Name[:9] == "compress_"
		if !compress && (len(fn.Name) < 11 || fn.Name[:11] != "decompress_") {
			continue
		}
		for _, w := range []int{1, 4, 5, 10, 11} {
			dv := bounds.Param{Name: "d", Scalar: true, Value: int64(w)}
			if compress {
				ps := bounds.ParamsOf(ck)
				var f [256]int64
				for i := range f {
					f[i] = int64(r.IntN(contract.QKEM))
				}
				ps[1].Values = f[:]
				want := make([]int64, 32*w)
				for i, x := range f {
					y := (x<<(w+1) + contract.QKEM) / (2 * contract.QKEM) % (1 << w) // ⌈(2^d/q)·x⌋ mod 2^d
					for k := range w {
						want[(i*w+k)/8] |= (y >> k & 1) << ((i*w + k) % 8)
					}
				}
				got := concrete(t, fn, d, append(ps, dv), "dst")
				for j, v := range want {
					if j >= len(got) || uint8(got[j]) != uint8(v) {
						t.Fatalf("%s d=%d dst[%d]: analysis %v, spec %d", fn.Name, w, j, got, v)
					}
				}
				if len(got) != len(want) {
					t.Fatalf("%s d=%d: %d bytes written, want %d", fn.Name, w, len(got), len(want))
				}
			} else {
				ps := bounds.ParamsOf(dk)
				src := make([]int64, 32*11)
				for j := range src {
					src[j] = int64(int8(r.Uint32()))
				}
				ps[1].Values = src
				got := concrete(t, fn, d, append(ps, dv), "f")
				for i := range 256 {
					var y int64
					for k := range w {
						y |= int64(uint8(src[(i*w+k)/8])>>((i*w+k)%8)&1) << k
					}
					want := (y*contract.QKEM + 1<<(w-1)) >> w // ⌈(q/2^d)·y⌋
					if got[i] != want {
						t.Fatalf("%s d=%d f[%d]: analysis %d, spec %d", fn.Name, w, i, got[i], want)
					}
				}
			}
			checked++
		}
	}
	if checked != 20 {
		t.Fatalf("%d runs checked, want 20 (2 compress, 2 decompress, 5 d each)", checked)
	}
}

// concrete runs the analysis of fn on concrete inputs and returns the
// exact lanes of output arg, failing t unless proven and exact.
func concrete(t *testing.T, fn *ir.Function, d bounds.Data, ps []bounds.Param, arg string) []int64 {
	t.Helper()
	res := bounds.Analyze(fn, d, ps)
	if res.Status != bounds.Proven {
		t.Fatalf("%s on a concrete input: %s (%v)", fn.Name, res.Status, res.Finding)
	}
	var out []int64
	for j, l := range res.Lanes[arg] {
		if l.Lo != l.Hi {
			t.Fatalf("%s %s[%d]: analysis %v on a concrete input", fn.Name, arg, j, l)
		}
		out = append(out, l.Lo)
	}
	return out
}
