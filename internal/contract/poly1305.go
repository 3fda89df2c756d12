package contract

import (
	"fmt"
	"math"
)

// Poly1305's contracts are over unsigned 64-bit words, not lanes of a
// modulus: the accumulator h = h[0] + h[1]·2^64 + h[2]·2^128 the
// generic code (internal/poly1305core.BlocksGeneric, MulReduce) keeps
// partially reduced with h[2] < 8, the clamped key r, the power table the
// vector variants read (r^k in radix 2^26 or 2^44, PowersN, and their
// wrap multiples) and the message as any bytes. Each function a variant
// runs has its own (PolyBlocks, PolySum, PolyVector); the kernel record
// (Of("poly1305")) has no lane arguments.

// A Word is the closed interval [Lo, Hi] of an unsigned 64-bit word.
type Word struct{ Lo, Hi uint64 }

// AnyWord is every 64-bit word.
var AnyWord = Word{0, math.MaxUint64}

// Within reports whether w lies within v.
func (w Word) Within(v Word) bool { return v.Lo <= w.Lo && w.Hi <= v.Hi }

func (w Word) String() string {
	if w == AnyWord {
		return "any"
	}
	return fmt.Sprintf("[%d, %d]", w.Lo, w.Hi)
}

// A WordArg is one parameter of a Poly1305 function.
type WordArg struct {
	Name string
	// In and Out are the bounds of the words the function reads and
	// writes; nil: not read (not written).
	In, Out []Word
	// Bytes marks a byte slice any byte of which may be anything (the
	// message); its length is any.
	Bytes bool
	// Scalar, if set, makes the parameter an integer with these values.
	Scalar *Word
	// Mod marks Out as defined modulo 2^(64·len(Out)): the carry out of
	// the last addition into it is discarded by definition (the tag,
	// (h + s) mod 2^128).
	Mod bool
}

// A WordFunc is the contract of one Poly1305 function.
type WordFunc struct {
	Kind string // blocks, sum or vector
	Args []WordArg
	Doc  string
}

// Arg returns f's parameter name.
func (f WordFunc) Arg(name string) (WordArg, bool) {
	for _, a := range f.Args {
		if a.Name == name {
			return a, true
		}
	}
	return WordArg{}, false
}

// Poly1305H2 bounds the top word of the accumulator between calls:
// h[2] < 8 (h < 2^131), as BlocksGeneric documents; MulReduce takes
// h[2] < 2^4 after a block is added.
var Poly1305H2 = Word{0, 7}

// Clamping masks of r (RFC 8439 section 2.5; internal/poly1305core's
// RMask0, RMask1).
const (
	PolyRMask0 = 0x0FFFFFFC0FFFFFFF
	PolyRMask1 = 0x0FFFFFFC0FFFFFFC
)

// polyH is the accumulator: any low words, h[2] < 8.
func polyH() []Word { return []Word{AnyWord, AnyWord, Poly1305H2} }

// PolyBlocks is the contract of a scalar block function,
// func(h *[3]uint64, r *[2]uint64, m []byte, hibit uint64): h as the
// generic code keeps it on entry and exit, r clamped (each word within
// [0, mask], a superset of r & mask), any message of any length (the
// function takes its len/16 full blocks) and the pad bit 0 or 1.
func PolyBlocks() WordFunc {
	return WordFunc{Kind: "blocks", Doc: "BlocksGeneric: h[2] < 8 in and out, r clamped, any message, hibit ∈ {0, 1}",
		Args: []WordArg{{Name: "h", In: polyH(), Out: polyH()},
			{Name: "r", In: []Word{{0, PolyRMask0}, {0, PolyRMask1}}},
			{Name: "m", Bytes: true}, {Name: "hibit", Scalar: &Word{0, 1}}}}
}

// PolySum is the contract of a one-shot MAC function,
// func(out *[16]byte, m []byte, key *[32]byte): any key (it clamps r
// itself), any message; the tag is (h mod p + s) mod 2^128.
func PolySum() WordFunc {
	return WordFunc{Kind: "sum", Doc: "sumGeneric: any key and message; out = (h mod p + s) mod 2^128",
		Args: []WordArg{{Name: "out", Out: []Word{AnyWord, AnyWord}, Mod: true},
			{Name: "m", Bytes: true}, {Name: "key", In: []Word{AnyWord, AnyWord, AnyWord, AnyWord}}}}
}

// PolyLimbs returns the bounds of the radix-2^radix limbs of a partially
// reduced power r^k (h[2] < 8, PowersN's split): the lower limbs below
// 2^radix, the top one (all bits from (limbs-1)·radix) below 2^(131 -
// (limbs-1)·radix); and the wrap multiple (5 for radix 2^26, 20 for
// radix 2^44: 2^(limbs·radix - 130)·5).
func PolyLimbs(radix int) (limbs []Word, wrap uint64) {
	nl, wrap := 5, uint64(5)
	if radix == 44 {
		nl, wrap = 3, 20
	}
	for c := 0; c < nl-1; c++ {
		limbs = append(limbs, Word{0, 1<<radix - 1})
	}
	return append(limbs, Word{0, 1<<(131-(nl-1)*radix) - 1}), wrap
}

// PolyPowTable returns the bound of every word of a vector variant's
// power table (variants/poly1305 fill.go): entries of the limbs and the
// wrap multiples of limbs 1.. of a power, each an L-lane vector
// (unroll+1 entries), or compact (pow=reg): unroll entries of the limbs
// as single words, then the limbs of the lane powers as L-lane vectors.
func PolyPowTable(radix, lanes, unroll int, compact bool) []Word {
	limbs, wrap := PolyLimbs(radix)
	nl := len(limbs)
	var out []Word
	if compact {
		for e := 0; e < unroll; e++ {
			out = append(out, limbs...)
		}
		for c := 0; c < nl; c++ {
			for q := 0; q < lanes; q++ {
				out = append(out, limbs[c])
			}
		}
		return out
	}
	for e := 0; e <= unroll; e++ {
		for c := 0; c < 2*nl-1; c++ {
			w := limbs[min(c, nl-1)]
			if c >= nl {
				w = Word{0, wrap * limbs[c-nl+1].Hi}
			}
			for q := 0; q < lanes; q++ {
				out = append(out, w)
			}
		}
	}
	return out
}

// PolyVector is the contract of a vector block function,
// func(h *[3]uint64, pw *uint64, m []byte) (masked, tail=vector:
// func(h *[3]uint64, pw *uint64, m []byte, pad int, fm *[8]uint16)):
// h as PolyBlocks', the power table of its shape, any message (its
// length as the variant requires; the analysis takes any) and, masked,
// pad below the blocks per iteration and any masks fm.
func PolyVector(radix, lanes, unroll int, compact, masked bool) WordFunc {
	f := WordFunc{Kind: "vector", Doc: fmt.Sprintf("h[2] < 8 in and out, the radix 2^%d power table of %d lanes, %d vectors (compact %v), any message", radix, lanes, unroll, compact),
		Args: []WordArg{{Name: "h", In: polyH(), Out: polyH()},
			{Name: "pw", In: PolyPowTable(radix, lanes, unroll, compact)}, {Name: "m", Bytes: true}}}
	if masked {
		f.Args = append(f.Args, WordArg{Name: "pad", Scalar: &Word{0, uint64(lanes*unroll - 1)}},
			WordArg{Name: "fm", In: []Word{AnyWord, AnyWord}})
	}
	return f
}

func init() {
	kernels = append(kernels, Kernel{Name: "poly1305",
		Doc: "BlocksGeneric and MulReduce keep h = h[0] + h[1]·2^64 + h[2]·2^128 with h[2] < 8 for a clamped r and any message; per function: PolyBlocks, PolySum, PolyVector"})
}
