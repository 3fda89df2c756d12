//go:build !purego

package poly1305

import "github.com/tunelab/tunelab/kernels/variant"

//go:generate go run ../../variants/poly1305 -out poly1305_amd64.s -stubs zstubs_amd64.go -pkg poly1305 -table zvariants_amd64.go -prod zprod_amd64.go -ct ../../lab/ct/zstatic_poly1305.go

// An asmVariant says how to call one generated variant (the Fn of its
// record in zvariants_amd64.go and, for the production set,
// zprod_amd64.go): its id in the switches and, for a vector variant, the
// shape of its power table.
type asmVariant struct {
	id         int   // index in labVariants
	vector     bool  // vector variant (else scalar)
	radix      int   // 26 or 44
	lanes      int   // blocks per vector
	unroll     int   // vectors per iteration
	order      []int // lane q holds block order[q] of a vector
	shape      int   // power-table shape, for the FillTable switches
	powWords   int   // power-table size in words
	compact    bool  // pow=reg: compact table, see variants/poly1305
	tailVector bool  // tail=vector: any block count, front-padded first iteration
	tailSteps  bool  // tail=vec4: whole iterations, then 4-block vectors one at a time

	// first[pad] are the first-iteration masks of a tail=vector variant
	// for pad leading virtual blocks (pad < blocks per iteration <= 16),
	// set by prepare.
	first *[16][8]uint16
	// lab marks a variant only the lab set has: it runs through labCalls.
	lab bool
}

// maxPowWords bounds the power table of every vector variant:
// (unroll+1) entries of (limbs + wrap multiples) vectors, the largest
// being radix 2^26 with 4 lanes and 8 vectors per iteration (blocks=32).
const maxPowWords = 9 * 9 * 4

// mediumPowWords bounds the tables of at most 3 entries of 9 limb vectors
// of 8 lanes (every variant of up to 16 blocks per iteration), so that
// those do not pay for zeroing a full-size stack buffer.
const mediumPowWords = 3 * 9 * 8

// smallPowWords bounds the smaller tables (e.g. 8 lanes, one vector per
// iteration: 2 entries of at most 9 limb vectors); a stack buffer of this
// size spares short inputs the zeroing of a full-size one.
const smallPowWords = 2 * 9 * 8

// tinyPowWords bounds the compact (pow=reg) tables: (unroll + lanes)
// radix 2^44 powers of 3 limbs.
const tinyPowWords = (2 + 8) * 3

// powCache keeps a MAC's power table between writes; kind identifies the
// table shape it holds (0: none).
type powCache struct {
	kind int
	tab  [maxPowWords]uint64
}

// prodImpls returns the production set, in generation order.
func prodImpls() []variant.Impl[*asmVariant] {
	for _, r := range prodVariants {
		prepare(r.Fn, false)
	}
	return prodVariants
}

// labImpls returns every generated variant in generation order, those
// the production set lacks marked lab. It sets labCalls to the lab
// wrappers, which makes the binary link the lab switches and every
// variant.
func labImpls() []variant.Impl[*asmVariant] {
	labCalls.sum, labCalls.blocks, labCalls.run = labSum, labBlocks, labRun
	all := labVariants()
	for _, r := range all {
		prepare(r.Fn, variant.Find(prodVariants, r.Name) == nil)
	}
	return all
}

// prepare marks v as a lab variant or not and computes the masks of a
// tail=vector variant.
func prepare(v *asmVariant, inLab bool) {
	v.lab = inLab
	if v.tailVector && v.first == nil {
		v.first = new([16][8]uint16)
		for pad := 0; pad < v.lanes*v.unroll; pad++ {
			v.first[pad] = v.masks(pad)
		}
	}
}

// inLab reports whether v is a lab variant (nil: the generic code is not).
func (v *asmVariant) inLab() bool { return v != nil && v.lab }

// oneShot returns the variant whose one-shot function computes the MAC of
// an n-byte message in one assembly call, and true: a scalar variant's
// own, and for a vector variant when the message is shorter than one
// iteration the scalar MULQ variant 0's. A tail=vector variant has none
// (false): its masked first iteration covers short messages.
func (v *asmVariant) oneShot(n int) (int, bool) {
	switch {
	case !v.vector:
		return v.id, true
	case v.tailVector || n >= v.chunk():
		return 0, false
	}
	return 0, true
}

// vectorBytes returns how many of n bytes of blocks (n a multiple of 16)
// v's vector function takes: none for a scalar variant, all for a
// tail=vector one, else none below one iteration and otherwise the
// longest prefix of whole iterations, or with tail=vec4 of whole 4-block
// vectors; the scalar block function of scalarID adds the rest.
func (v *asmVariant) vectorBytes(n int) int {
	switch {
	case !v.vector:
		return 0
	case v.tailVector:
		return n
	case n < v.chunk():
		return 0
	case v.tailSteps:
		return n &^ (16*v.lanes - 1)
	}
	return n / v.chunk() * v.chunk()
}

// scalarID is the variant whose scalar block function runs the blocks v's
// vector function leaves: v itself for a scalar variant, else the scalar
// MULQ variant 0 (no features needed).
func (v *asmVariant) scalarID() int {
	if v.vector {
		return 0
	}
	return v.id
}

// chunk is the number of bytes of one iteration of a vector variant.
func (v *asmVariant) chunk() int { return 16 * v.lanes * v.unroll }

// firstBlocks returns the number of virtual zero blocks that front-pad
// the first iteration of tail=vector variant v over n bytes (n > 0, a
// multiple of 16), so that whole iterations cover them, and the masks of
// that iteration.
func (v *asmVariant) firstBlocks(n int) (int, *[8]uint16) {
	per := v.lanes * v.unroll
	pad := (per - n/16%per) % per
	return pad, &v.first[pad]
}

// masks returns the first-iteration masks of a tail=vector variant for pad
// leading virtual blocks: per vector k, the qword masks of its two loads
// (blocks k·L+j >= pad, j < L/2 in the first, the rest in the second), the
// lanes that get the pad bit, and the lane holding block pad (which gets
// the incoming h).
func (v *asmVariant) masks(pad int) [8]uint16 {
	var fm [8]uint16
	L := v.lanes
	for k := 0; k < v.unroll; k++ {
		for j := 0; j < L; j++ {
			if k*L+j >= pad {
				fm[4*k+j/(L/2)] |= 3 << (2 * (j % (L / 2)))
			}
		}
		for q := 0; q < L; q++ {
			b := k*L + v.order[q]
			if b >= pad {
				fm[4*k+2] |= 1 << q
			}
			if b == pad {
				fm[4*k+3] |= 1 << q
			}
		}
	}
	return fm
}

// kind identifies v's table shape in a powCache (0 means empty).
func (v *asmVariant) kind() int { return v.shape + 1 }

// claim reports whether pc must be filled for v's table shape (it holds
// another or none) and records it as holding v's; the caller fills it.
// The layout of a table is documented in variants/poly1305 (fill.go),
// which generates the straight-line fill functions. Powers are partially
// reduced (below 2^131): the top limb may exceed the radix by up to 3
// bits, which the variants' bounds allow.
func (pc *powCache) claim(v *asmVariant) bool {
	if pc.kind == v.kind() {
		return false
	}
	pc.kind = v.kind()
	return true
}

// powers44 sets l[k] to the radix 2^44 limbs of r^k for k in 1..len(l)-1.
// A chain of mulReduce by the clamped r measured twice as fast here as
// doubling with general products (r^(2^i + j) = r^(2^i)·r^j), whose shorter
// dependent chain did not pay for twice the multiplications.
func powers44(l [][5]uint64, r *[2]uint64) {
	h0, h1, h2 := r[0], r[1], uint64(0)
	split44(&l[1], h0, h1, h2)
	for k := 2; k < len(l); k++ {
		h0, h1, h2 = mulReduce(h0, h1, h2, r[0], r[1])
		split44(&l[k], h0, h1, h2)
	}
}

// powers26 sets l[k] to the radix 2^26 limbs of r^k for k in 1..len(l)-1.
// The chain of mulReduce by the clamped r also measured faster on a Zen 3
// than computing only r^1..r^L this way and the multiples of L, each as a
// radix 2^26 product of the previous one and r^L (3 + 3 products instead
// of 16 for 4 lanes, 16 blocks): that made a 256-byte MAC with a 16-block
// AVX2 variant about 30 ns slower.
func powers26(l [][5]uint64, r *[2]uint64) {
	h0, h1, h2 := r[0], r[1], uint64(0)
	split26(&l[1], h0, h1, h2)
	for k := 2; k < len(l); k++ {
		h0, h1, h2 = mulReduce(h0, h1, h2, r[0], r[1])
		split26(&l[k], h0, h1, h2)
	}
}

// split26 sets l to h0 + h1·2^64 + h2·2^128 as five 26-bit limbs, the top
// one holding all bits from 104.
func split26(l *[5]uint64, h0, h1, h2 uint64) {
	const m = 1<<26 - 1
	l[0], l[1], l[2], l[3], l[4] = h0&m, h0>>26&m, (h0>>52|h1<<12)&m, h1>>14&m, h1>>40|h2<<24
}

// split44 sets l to h0 + h1·2^64 + h2·2^128 as two 44-bit limbs and the
// bits from 88.
func split44(l *[5]uint64, h0, h1, h2 uint64) {
	const m = 1<<44 - 1
	l[0], l[1], l[2] = h0&m, (h0>>44|h1<<20)&m, h1>>24|h2<<40
}
