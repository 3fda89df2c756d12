//go:build !purego

package poly1305core

// A Variant says how to call one generated variant (the Fn of its record
// in kernels/poly1305's production table or lab/variants/poly1305's lab
// table): its id in the generated switches and, for a vector variant, the
// shape of its power table. The generators of both tables
// (variants/poly1305) write its fields; kernels/poly1305 prepares each
// record it registers (Prepare).
type Variant struct {
	ID         int   // generation index, the id in the switches
	Vector     bool  // vector variant (else scalar)
	Radix      int   // 26 or 44
	Lanes      int   // blocks per vector
	Unroll     int   // vectors per iteration
	Order      []int // lane q holds block Order[q] of a vector
	Shape      int   // power-table shape, for the FillTable switches
	PowWords   int   // power-table size in words
	Compact    bool  // pow=reg: compact table, see variants/poly1305
	TailVector bool  // tail=vector: any block count, front-padded first iteration
	TailSteps  bool  // tail=vec4: whole iterations, then 4-block vectors one at a time

	// first[pad] are the first-iteration masks of a tail=vector variant
	// for pad leading virtual blocks (pad < blocks per iteration <= 16),
	// set by Prepare.
	first *[16][8]uint16
	// lab marks a variant only the lab set has: it runs through Lab.
	lab bool
}

// Lab runs the variants production does not link: lab/variants/poly1305's
// init sets it to that package's generated wrappers, so that only a
// binary importing that package (the lab: tunelab, its workers, tests)
// links them. Calls through these func values move their pointer
// arguments to the heap; the wrappers keep the power tables they build on
// their own stacks, so that a lab variant's MAC allocates no more than
// its caller's arguments.
var Lab struct {
	// Sum computes the MAC of m under key with lab variant v.
	Sum func(v *Variant, out *[16]byte, m []byte, key *[32]byte)
	// Blocks adds the full blocks of m to st.H with lab variant v (pc as
	// the production wrappers' prodBlocks).
	Blocks func(v *Variant, st *State, m []byte, pc *PowCache)
	// Run computes the MAC n times with lab variant v.
	Run func(v *Variant, n int, out *[16]byte, m []byte, key *[32]byte)
	// FillTable writes the power table of a shape of the lab set, for
	// tests.
	FillTable func(shape int, tab []uint64, r *[2]uint64)
}

// MaxPowWords bounds the power table of every vector variant:
// (unroll+1) entries of (limbs + wrap multiples) vectors, the largest
// being radix 2^26 with 4 lanes and 8 vectors per iteration (blocks=32).
const MaxPowWords = 9 * 9 * 4

// MediumPowWords bounds the tables of at most 3 entries of 9 limb vectors
// of 8 lanes (every variant of up to 16 blocks per iteration), so that
// those do not pay for zeroing a full-size stack buffer.
const MediumPowWords = 3 * 9 * 8

// SmallPowWords bounds the smaller tables (e.g. 8 lanes, one vector per
// iteration: 2 entries of at most 9 limb vectors); a stack buffer of this
// size spares short inputs the zeroing of a full-size one.
const SmallPowWords = 2 * 9 * 8

// TinyPowWords bounds the compact (pow=reg) tables: (unroll + lanes)
// radix 2^44 powers of 3 limbs.
const TinyPowWords = (2 + 8) * 3

// A PowCache keeps a MAC's power table between writes; kind identifies
// the table shape it holds (0: none).
type PowCache struct {
	kind int
	Tab  [MaxPowWords]uint64
}

// Prepare marks v as a lab variant or not and computes the masks of a
// tail=vector variant.
func (v *Variant) Prepare(inLab bool) {
	v.lab = inLab
	if v.TailVector && v.first == nil {
		v.first = new([16][8]uint16)
		for pad := 0; pad < v.Lanes*v.Unroll; pad++ {
			v.first[pad] = v.masks(pad)
		}
	}
}

// InLab reports whether v is a lab variant (nil: the generic code is not).
func (v *Variant) InLab() bool { return v != nil && v.lab }

// OneShot returns the variant whose one-shot function computes the MAC of
// an n-byte message in one assembly call, and true: a scalar variant's
// own, and for a vector variant when the message is shorter than one
// iteration the scalar MULQ variant 0's. A tail=vector variant has none
// (false): its masked first iteration covers short messages.
func (v *Variant) OneShot(n int) (int, bool) {
	switch {
	case !v.Vector:
		return v.ID, true
	case v.TailVector || n >= v.Chunk():
		return 0, false
	}
	return 0, true
}

// VectorBytes returns how many of n bytes of blocks (n a multiple of 16)
// v's vector function takes: none for a scalar variant, all for a
// tail=vector one, else none below one iteration and otherwise the
// longest prefix of whole iterations, or with tail=vec4 of whole 4-block
// vectors; the scalar block function of ScalarID adds the rest.
func (v *Variant) VectorBytes(n int) int {
	switch {
	case !v.Vector:
		return 0
	case v.TailVector:
		return n
	case n < v.Chunk():
		return 0
	case v.TailSteps:
		return n &^ (16*v.Lanes - 1)
	}
	return n / v.Chunk() * v.Chunk()
}

// ScalarID is the variant whose scalar block function runs the blocks v's
// vector function leaves: v itself for a scalar variant, else the scalar
// MULQ variant 0 (no features needed).
func (v *Variant) ScalarID() int {
	if v.Vector {
		return 0
	}
	return v.ID
}

// Chunk is the number of bytes of one iteration of a vector variant.
func (v *Variant) Chunk() int { return 16 * v.Lanes * v.Unroll }

// FirstBlocks returns the number of virtual zero blocks that front-pad
// the first iteration of tail=vector variant v over n bytes (n > 0, a
// multiple of 16), so that whole iterations cover them, and the masks of
// that iteration.
func (v *Variant) FirstBlocks(n int) (int, *[8]uint16) {
	per := v.Lanes * v.Unroll
	pad := (per - n/16%per) % per
	return pad, &v.first[pad]
}

// masks returns the first-iteration masks of a tail=vector variant for pad
// leading virtual blocks: per vector k, the qword masks of its two loads
// (blocks k·L+j >= pad, j < L/2 in the first, the rest in the second), the
// lanes that get the pad bit, and the lane holding block pad (which gets
// the incoming h).
func (v *Variant) masks(pad int) [8]uint16 {
	var fm [8]uint16
	L := v.Lanes
	for k := 0; k < v.Unroll; k++ {
		for j := 0; j < L; j++ {
			if k*L+j >= pad {
				fm[4*k+j/(L/2)] |= 3 << (2 * (j % (L / 2)))
			}
		}
		for q := 0; q < L; q++ {
			b := k*L + v.Order[q]
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

// kind identifies v's table shape in a PowCache (0 means empty).
func (v *Variant) kind() int { return v.Shape + 1 }

// Claim reports whether pc must be filled for v's table shape (it holds
// another or none) and records it as holding v's; the caller fills it.
// The layout of a table is documented in variants/poly1305 (fill.go),
// which generates the straight-line fill functions. Powers are partially
// reduced (below 2^131): the top limb may exceed the radix by up to 3
// bits, which the variants' bounds allow.
func (pc *PowCache) Claim(v *Variant) bool {
	if pc.kind == v.kind() {
		return false
	}
	pc.kind = v.kind()
	return true
}

// Powers44 sets l[k] to the radix 2^44 limbs of r^k for k in 1..len(l)-1.
// A chain of MulReduce by the clamped r measured twice as fast here as
// doubling with general products (r^(2^i + j) = r^(2^i)·r^j), whose shorter
// dependent chain did not pay for twice the multiplications.
func Powers44(l [][5]uint64, r *[2]uint64) {
	h0, h1, h2 := r[0], r[1], uint64(0)
	split44(&l[1], h0, h1, h2)
	for k := 2; k < len(l); k++ {
		h0, h1, h2 = MulReduce(h0, h1, h2, r[0], r[1])
		split44(&l[k], h0, h1, h2)
	}
}

// Powers26 sets l[k] to the radix 2^26 limbs of r^k for k in 1..len(l)-1.
// The chain of MulReduce by the clamped r also measured faster on a Zen 3
// than computing only r^1..r^L this way and the multiples of L, each as a
// radix 2^26 product of the previous one and r^L (3 + 3 products instead
// of 16 for 4 lanes, 16 blocks): that made a 256-byte MAC with a 16-block
// AVX2 variant about 30 ns slower.
func Powers26(l [][5]uint64, r *[2]uint64) {
	h0, h1, h2 := r[0], r[1], uint64(0)
	split26(&l[1], h0, h1, h2)
	for k := 2; k < len(l); k++ {
		h0, h1, h2 = MulReduce(h0, h1, h2, r[0], r[1])
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
