//go:build !purego

package poly1305

//go:generate go run ../../variants/poly1305 -out poly1305_amd64.s -stubs zstubs_amd64.go -pkg poly1305 -table zvariants_amd64.go

// An asmVariant is one generated variant (see zvariants_amd64.go): a scalar
// block function, or a vector one with its power-table shape.
type asmVariant struct {
	name, symbol, loop string
	codeBytes          int
	features           []string
	sweep              bool
	vector             bool  // vector variant (else scalar)
	radix              int   // 26 or 44
	lanes, unroll      int   // blocks per vector, vectors per iteration
	order              []int // lane q holds block order[q] of a vector
	shape              int   // power-table shape, for fillTable
	powWords           int   // power-table size in words
	compact            bool  // pow=reg: compact table, see variants/poly1305
	tailVector         bool  // tail=vector: any block count, front-padded first iteration
}

// maxPowWords bounds the power table of every vector variant:
// (unroll+1) entries of (limbs + wrap multiples) vectors.
const maxPowWords = 3 * 9 * 8

// powCache keeps a MAC's power table between writes; kind identifies the
// table shape it holds (0: none).
type powCache struct {
	kind int
	tab  [maxPowWords]uint64
}

func platformImpls() []*impl {
	var out []*impl
	for i := range asmVariants {
		v := &asmVariants[i]
		out = append(out, &impl{id: i, name: v.name, features: v.features, sweep: v.sweep,
			symbol: v.symbol, loop: v.loop, codeBytes: v.codeBytes})
	}
	return out
}

// asmSum computes the MAC in one assembly call and reports true for a
// scalar variant, and for a vector variant when m is shorter than one
// iteration (its short-message path is the scalar MULQ variant 0); else
// it reports false.
func asmSum(id int, out *[16]byte, m []byte, key *[32]byte) bool {
	v := &asmVariants[id]
	if v.tailVector {
		return false
	}
	if v.vector {
		if len(m) >= 16*v.lanes*v.unroll {
			return false
		}
		id = 0
	}
	callSum(id, out, m, key)
	return true
}

// asmBlocks adds the full blocks of m to st.h with variant id. A vector
// variant runs on the longest prefix of m made of whole iterations and the
// scalar MULQ variant (variant 0, no features needed) on the rest.
func asmBlocks(id int, st *state, m []byte, pc *powCache) {
	v := &asmVariants[id]
	if !v.vector {
		callScalar(id, &st.h, &st.r, m, 1)
		return
	}
	if v.tailVector {
		if len(m) > 0 {
			maskedBlocks(id, st, m, pc)
		}
		return
	}
	chunk := 16 * v.lanes * v.unroll
	if n := len(m) / chunk * chunk; n > 0 {
		switch {
		case pc != nil:
			callVector(id, &st.h, &pc.get(v, &st.r)[0], m[:n])
		case v.powWords <= tinyPowWords:
			vectorFreshTiny(id, st, m[:n])
		case v.powWords <= smallPowWords:
			vectorFreshSmall(id, st, m[:n])
		default:
			vectorFresh(id, st, m[:n])
		}
		m = m[n:]
	}
	if len(m) > 0 {
		callScalar(0, &st.h, &st.r, m, 1)
	}
}

// vectorFresh computes the power table on the stack and runs vector
// variant id; kept out of asmBlocks so short inputs do not pay for it.
//
//go:noinline
func vectorFresh(id int, st *state, m []byte) {
	var tab [maxPowWords]uint64
	asmVariants[id].fillPowers(tab[:], &st.r)
	callVector(id, &st.h, &tab[0], m)
}

// smallPowWords bounds the smaller tables (e.g. 8 lanes, one vector per
// iteration: 2 entries of at most 9 limb vectors).
const smallPowWords = 2 * 9 * 8

// vectorFreshSmall is vectorFresh for tables of at most smallPowWords
// words, sparing the zeroing of a full-size table.
//
//go:noinline
func vectorFreshSmall(id int, st *state, m []byte) {
	var tab [smallPowWords]uint64
	asmVariants[id].fillPowers(tab[:], &st.r)
	callVector(id, &st.h, &tab[0], m)
}

// tinyPowWords bounds the compact (pow=reg) tables: (unroll + lanes)
// radix 2^44 powers of 3 limbs.
const tinyPowWords = (2 + 8) * 3

// vectorFreshTiny is vectorFresh for tables of at most tinyPowWords words.
//
//go:noinline
func vectorFreshTiny(id int, st *state, m []byte) {
	var tab [tinyPowWords]uint64
	asmVariants[id].fillPowers(tab[:], &st.r)
	callVector(id, &st.h, &tab[0], m)
}

// maskedBlocks runs tail=vector variant id on all of m (len(m) > 0, a
// multiple of 16): the first iteration is front-padded with virtual zero
// blocks so that whole iterations cover m.
func maskedBlocks(id int, st *state, m []byte, pc *powCache) {
	v := &asmVariants[id]
	per := v.lanes * v.unroll
	pad := (per - len(m)/16%per) % per
	fm := &firstMasks[id][pad]
	if pc != nil {
		callVectorMasked(id, &st.h, &pc.get(v, &st.r)[0], m, pad, fm)
		return
	}
	var tab [tinyPowWords]uint64
	v.fillPowers(tab[:], &st.r)
	callVectorMasked(id, &st.h, &tab[0], m, pad, fm)
}

// firstMasks[id][pad] holds the masks of tail=vector variant id for pad
// leading virtual blocks (pad < blocks per iteration <= 16).
var firstMasks = func() [][16][8]uint16 {
	out := make([][16][8]uint16, len(asmVariants))
	for id := range asmVariants {
		v := &asmVariants[id]
		for pad := 0; v.tailVector && pad < v.lanes*v.unroll; pad++ {
			out[id][pad] = v.masks(pad)
		}
	}
	return out
}()

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

// get returns the table for v's shape, computing it on a change of shape.
func (pc *powCache) get(v *asmVariant, r *[2]uint64) *[maxPowWords]uint64 {
	if pc.kind != v.kind() {
		v.fillPowers(pc.tab[:], r)
		pc.kind = v.kind()
	}
	return &pc.tab
}

// fillPowers writes the power table the vector function reads; its layout
// is documented in variants/poly1305 (fill.go), which generates the
// straight-line fill functions. Powers are partially reduced (below
// 2^131): the top limb may exceed the radix by up to 3 bits, which the
// variants' bounds allow.
func (v *asmVariant) fillPowers(tab []uint64, r *[2]uint64) {
	fillTable(v.shape, tab, r)
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
