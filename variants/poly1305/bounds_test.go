//go:build !purego

package main

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/ir"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/poly1305core"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/bounds"
)

// TestBoundsSemanticsMatchGeneric runs the word analysis concretely
// (every input word a constant, the message's bytes given) over every
// generated function, scalar block, one-shot MAC and vector block, on
// random and extreme accumulators, keys and messages, and compares the
// words it derives with the generic code's: the accumulator modulo p, the
// tag exactly. So the analysis' instruction semantics (operand orders,
// carries, shuffles, masks) are those of the code's, the same semantics
// it proves the bounds with.
func TestBoundsSemanticsMatchGeneric(t *testing.T) {
	specs := build()
	file, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(file)
	bySym := map[string]*spec{}
	for i := range specs {
		bySym[specs[i].fn()] = &specs[i]
		if specs[i].isa == "scalar" {
			bySym[specs[i].sumFn()] = &specs[i]
		}
	}
	rng := rand.New(rand.NewPCG(42, 1305))
	n := 0
	for _, fn := range file.Functions() {
		s := bySym[fn.Name]
		if s == nil {
			continue
		}
		for trial := 0; trial < 3; trial++ {
			h, r, key := trialInputs(rng, trial)
			switch {
			case strings.HasPrefix(fn.Name, "sum_"):
				m := randBytes(rng, []int{0, 15, 16, 77}[rng.IntN(4)]+trial*16)
				c := contract.PolySum()
				c.Args[2].In = exactWords(keyWords(key))
				res, outs := bounds.AnalyzeWordsOn(fn, d, c, m)
				want := genericTag(m, &key)
				checkConcrete(t, fn.Name, res, outs["out"], []uint64{binary.LittleEndian.Uint64(want[:]), binary.LittleEndian.Uint64(want[8:])}, false)
			case s.isa == "scalar":
				m := randBytes(rng, 16*(trial+rng.IntN(6))+rng.IntN(16))
				hibit := uint64(trial % 2)
				c := contract.PolyBlocks()
				c.Args[0].In, c.Args[1].In = exactWords(h[:]), exactWords(r[:])
				c.Args[3].Scalar = &contract.Word{Lo: hibit, Hi: hibit}
				res, outs := bounds.AnalyzeWordsOn(fn, d, c, m)
				want := h
				poly1305core.BlocksGeneric(&want, &r, m[:len(m)&^15], hibit)
				checkConcrete(t, fn.Name, res, outs["h"], want[:], true)
			default:
				res, outs, want := vectorRun(rng, fn, s, h, r, d, trial)
				checkConcrete(t, fn.Name, res, outs["h"], want[:], true)
			}
			n++
		}
	}
	if n < 3*len(specs) {
		t.Fatalf("%d concrete runs, want at least %d", n, 3*len(specs))
	}
}

// trialInputs returns an accumulator within the contract (h[2] < 8; the
// extremes first), a clamped key r and a whole key.
func trialInputs(rng *rand.Rand, trial int) ([3]uint64, [2]uint64, [32]byte) {
	h := [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64N(8)}
	r := [2]uint64{rng.Uint64() & contract.PolyRMask0, rng.Uint64() & contract.PolyRMask1}
	if trial == 0 {
		h = [3]uint64{^uint64(0), ^uint64(0), contract.Poly1305H2.Hi}
		r = [2]uint64{contract.PolyRMask0, contract.PolyRMask1}
	}
	var key [32]byte
	for i := range key {
		key[i] = byte(rng.Uint32())
	}
	if trial == 0 {
		for i := range key {
			key[i] = 0xff
		}
	}
	return h, r, key
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	if n > 0 && rng.IntN(2) == 0 {
		for i := range b {
			b[i] = 0xff
		}
	}
	return b
}

func exactWords(ws []uint64) []contract.Word {
	out := make([]contract.Word, len(ws))
	for i, w := range ws {
		out[i] = contract.Word{Lo: w, Hi: w}
	}
	return out
}

func keyWords(key [32]byte) []uint64 {
	ws := make([]uint64, 4)
	for i := range ws {
		ws[i] = binary.LittleEndian.Uint64(key[8*i:])
	}
	return ws
}

// genericTag is the generic MAC (kernels/poly1305's sumGeneric).
func genericTag(m []byte, key *[32]byte) [16]byte {
	var st poly1305core.State
	st.Init(key)
	full := len(m) &^ 15
	poly1305core.BlocksGeneric(&st.H, &st.R, m[:full], 1)
	var out [16]byte
	st.Finish(&out, m[full:])
	return out
}

// vectorRun runs vector function fn of s concretely on h, r and a
// message of whole iterations (or, tail=vector, any block count with its
// front padding; tail=vec4, iterations and 4-block vectors) and returns
// the result and the generic accumulator.
func vectorRun(rng *rand.Rand, fn *ir.Function, s *spec, h [3]uint64, r [2]uint64, d bounds.Data, trial int) (bounds.Result, map[string][]contract.Word, [3]uint64) {
	chunk := 16 * s.blocks
	n := chunk * (1 + trial)
	switch s.tail {
	case "vector":
		n = 16 * (1 + rng.IntN(3*s.blocks))
	case "vec4":
		n = chunk*(1+trial%2) + 64*rng.IntN(s.unroll())
	}
	m := randBytes(rng, n)
	c := contract.PolyVector(s.radix, s.lanes, s.unroll(), s.pow == "reg", s.tail == "vector")
	c.Args[0].In = exactWords(h[:])
	c.Args[1].In = exactWords(powTable(s, &r))
	if s.tail == "vector" {
		v := poly1305core.Variant{Lanes: s.lanes, Unroll: s.unroll(), Order: s.order, TailVector: true}
		v.Prepare(false)
		pad, fm := v.FirstBlocks(n)
		c.Args[3].Scalar = &contract.Word{Lo: uint64(pad), Hi: uint64(pad)}
		var ws [2]uint64
		for i, x := range fm {
			ws[i/4] |= uint64(x) << (16 * uint(i%4))
		}
		c.Args[4].In = exactWords(ws[:])
	}
	res, outs := bounds.AnalyzeWordsOn(fn, d, c, m)
	want := h
	poly1305core.BlocksGeneric(&want, &r, m, 1)
	return res, outs, want
}

// powTable is the power table of s for r, in fill.go's layout.
func powTable(s *spec, r *[2]uint64) []uint64 {
	sh := s.shape()
	L, u := sh.lanes, sh.unroll
	l := make([][5]uint64, L*u+1)
	nl, wrap := 5, uint64(5)
	if sh.radix == 44 {
		nl, wrap = 3, 20
		poly1305core.Powers44(l, r)
	} else {
		poly1305core.Powers26(l, r)
	}
	var tab []uint64
	if sh.compact {
		for e := 0; e < u; e++ {
			exp := L * (u - e)
			if e == 0 {
				exp = L * u
			}
			tab = append(tab, l[exp][:nl]...)
		}
		for c := 0; c < nl; c++ {
			for q := 0; q < L; q++ {
				tab = append(tab, l[L-s.order[q]][c])
			}
		}
		return tab
	}
	for e := 0; e <= u; e++ {
		for c := 0; c < 2*nl-1; c++ {
			for q := 0; q < L; q++ {
				exp := L * (u - e)
				if e == 0 {
					exp = L * u
				} else if e == u {
					exp = L - s.order[q]
				}
				if c < nl {
					tab = append(tab, l[exp][c])
				} else {
					tab = append(tab, wrap*l[exp][c-nl+1])
				}
			}
		}
	}
	return tab
}

var p1305 = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))

// checkConcrete requires res proven with every output word a constant,
// equal to want (modulo p if modP).
func checkConcrete(t *testing.T, name string, res bounds.Result, got []contract.Word, want []uint64, modP bool) {
	t.Helper()
	if res.Status != bounds.Proven {
		t.Fatalf("%s: concrete run %s: %v", name, res.Status, res.Finding)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d output words, want %d", name, len(got), len(want))
	}
	g, w := new(big.Int), new(big.Int)
	for i := len(want) - 1; i >= 0; i-- {
		if got[i].Lo != got[i].Hi {
			t.Fatalf("%s: output word %d is %v, not a constant", name, i, got[i])
		}
		g.Lsh(g, 64).Or(g, new(big.Int).SetUint64(got[i].Lo))
		w.Lsh(w, 64).Or(w, new(big.Int).SetUint64(want[i]))
	}
	if modP {
		g.Mod(g, p1305)
		w.Mod(w, p1305)
	}
	if g.Cmp(w) != 0 {
		t.Fatalf("%s: the analysis computes %#x, the generic code %#x", name, g, w)
	}
}

// TestBoundsHeadroom analyses every variant's functions with their
// contracts (as -bounds does): all proven; it logs, per ISA, the greatest
// value each checked operand kind reaches (the headroom docs/bounds.md
// gives) and requires each below its limit.
func TestBoundsHeadroom(t *testing.T) {
	specs := build()
	file, err := avogen.Compile()
	if err != nil {
		t.Fatal(err)
	}
	d := bounds.DataOf(file)
	fns := map[string]*ir.Function{}
	for _, fn := range file.Functions() {
		fns[fn.Name] = fn
	}
	limits := map[string]float64{"VPMULUDQ operand": 32, "VPMADD52 operand": 52, "VPADDQ sum": 64, "VPMADD52 sum": 64, "IMULQ product": 64}
	peaks := map[string]map[string]uint64{}
	for i := range specs {
		s := &specs[i]
		for _, sym := range executed(specs, s)[:1+btoi(s.isa == "scalar")] {
			c, err := bounds.PolyContract(sym, s.name())
			if err != nil {
				t.Fatal(err)
			}
			r := bounds.AnalyzeWords(fns[sym], d, c)
			if r.Status != bounds.Proven {
				t.Fatalf("%s %s: %s: %v", s.name(), sym, r.Status, r.Finding)
			}
			if peaks[s.isa] == nil {
				peaks[s.isa] = map[string]uint64{}
			}
			for k, v := range r.Peaks {
				peaks[s.isa][k] = max(peaks[s.isa][k], v)
			}
		}
	}
	for isa, ps := range peaks {
		for k, v := range ps {
			b := math.Log2(float64(v) + 1)
			if b > limits[k] {
				t.Errorf("%s: %s reaches 2^%.2f, above 2^%.0f", isa, k, b, limits[k])
			}
			t.Logf("%s: %s below 2^%.2f (limit 2^%.0f)", isa, k, b, limits[k])
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
