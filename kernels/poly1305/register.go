package poly1305

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/tunelab/tunelab/internal/poly1305core"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Kernel is the dispatch name of Poly1305.
const kernel = "poly1305"

// sizes are the default sweep sizes in bytes.
var sizes = []int{16, 64, 256, 1024, 16384, 1 << 20}

// slot holds the implementations: the generic Go code (Fn nil) and the
// generated variants, Fn saying how to call one. A variant of the
// production set (zprod_amd64.go: those the compiled dispatch table can
// select) runs through the production switches; one that only the lab set
// has (added by RegisterVariants) runs through labSum, labBlocks and
// labRun: the generated wrappers of lab/variants/poly1305.
var slot = &kernelset.Slot[*asmVariant]{Name: kernel, Table: prodImpls()}

// labSpec describes the kernel for the lab (RegisterVariants).
func labSpec() kernelset.Spec[*asmVariant] {
	return kernelset.Spec[*asmVariant]{
		Family: "poly1305", Bench: "Poly1305",
		Sizes: sizes, SizeClasses: true, Unit: "B", UnitsPerOp: func(n int) float64 { return float64(n) },
		Doc: "Poly1305 one-time MAC (RFC 8439) of an n-byte message",
		Instance: func(name string, v *asmVariant, size int, seed uint64) variant.Instance {
			return newInstance(name, v, size, seed)
		},
		VerifyAt: func(name string, _ []string, v *asmVariant, size int, seed uint64) error {
			return verify(name, v, size, seed)
		},
		LoopTrips: loopTrips,
	}
}

// apiSum computes the MAC with v (nil: the generic code) for the public
// API: no pointer argument escapes, so that Sum and Verify allocate
// nothing. A lab variant runs on heap copies (sumCopy).
func apiSum(v *asmVariant, out *[16]byte, m []byte, key *[32]byte) {
	switch {
	case v == nil:
		sumGeneric(out, m, key)
	case v.InLab():
		sumCopy(v, out, m, key)
	default:
		prodSum(v, out, m, key)
	}
}

// apiBlocks adds the full blocks of m (len(m) a multiple of 16) to st.H
// with v for a MAC's Write; pc, when non-nil, caches key powers across
// calls of one MAC. As with apiSum nothing escapes; a lab variant runs on
// heap copies (blocksCopy).
func apiBlocks(v *asmVariant, st *state, m []byte, pc *powCache) {
	switch {
	case v == nil:
		poly1305core.BlocksGeneric(&st.H, &st.R, m, 1)
	case v.InLab():
		blocksCopy(v, st, m, pc)
	default:
		prodBlocks(v, st, m, pc)
	}
}

// sum computes the MAC with v on the caller's memory, for lab code
// (instances, verification, tests): a lab variant runs through labSum, a
// call of a func value, so out, m and key escape to the heap.
func sum(v *asmVariant, out *[16]byte, m []byte, key *[32]byte) {
	if v.InLab() {
		labSum(v, out, m, key)
		return
	}
	apiSum(v, out, m, key)
}

// loopTrips returns how often v's loop runs for a message of size bytes:
// each iteration absorbs the "blocks" knob's number of 16-byte blocks.
func loopTrips(v *variant.Variant) func(size int) float64 {
	blocks, err := strconv.Atoi(v.Knob("blocks"))
	if err != nil || blocks == 0 || v.LoopLabel == "" {
		return nil
	}
	return func(size int) float64 { return float64(size / (16 * blocks)) }
}

// An instance is a prepared key and message for the variant name, v.
type instance struct {
	name string
	v    *asmVariant
	key  [32]byte
	msg  []byte
	tag  [16]byte
}

func newInstance(name string, v *asmVariant, size int, seed uint64) *instance {
	in := &instance{name: name, v: v, msg: make([]byte, size)}
	rng := rand.New(rand.NewPCG(seed, 0x9013))
	fill(rng, in.key[:])
	fill(rng, in.msg)
	return in
}

func fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// Run computes the MAC n times, in a loop of direct calls for every kind
// of implementation, so that none pays for an indirect call per MAC.
func (in *instance) Run(n int) {
	switch v := in.v; {
	case v == nil:
		for i := 0; i < n; i++ {
			sumGeneric(&in.tag, in.msg, &in.key)
		}
	case v.InLab():
		labRun(v, n, &in.tag, in.msg, &in.key)
	default:
		prodRun(v, n, &in.tag, in.msg, &in.key)
	}
}

// Check recomputes the MAC and compares it with the reference.
func (in *instance) Check() error {
	return compare(in.name, in.v, fmt.Sprintf("instance (%d bytes)", len(in.msg)), in.msg, &in.key)
}

// compare checks the variant name, v, against the reference on one input:
// the generic code for generated variants, a math/big computation for the
// generic code.
func compare(name string, v *asmVariant, input string, m []byte, key *[32]byte) error {
	var got, want [16]byte
	sum(v, &got, m, key)
	if v == nil {
		sumBig(&want, m, key)
	} else {
		sumGeneric(&want, m, key)
	}
	for i := range got {
		if got[i] != want[i] {
			return &variant.Mismatch{Kernel: kernel, Variant: name, Input: input, Index: i,
				Got: fmt.Sprintf("%x", got), Want: fmt.Sprintf("%x", want)}
		}
	}
	return nil
}

// verify checks the variant name, v, on random inputs of size bytes and on
// edge cases: keys with r = 0, s = 0 or all bits set, all-ones messages.
func verify(name string, v *asmVariant, size int, seed uint64) error {
	if v == nil {
		size = min(size, 1<<16) // the math/big reference is slow
	}
	rng := rand.New(rand.NewPCG(seed, 0x1305))
	m := make([]byte, size)
	for _, c := range edgeCases(rng) {
		c.fillMsg(rng, m)
		input := fmt.Sprintf("%s, %d bytes (seed %#x)", c.name, size, seed)
		if err := compare(name, v, input, m, &c.key); err != nil {
			return err
		}
	}
	return nil
}

// An edgeCase is a key and a message pattern.
type edgeCase struct {
	name string
	key  [32]byte
	ones bool // message of 0xff bytes, else random
}

func (c edgeCase) fillMsg(rng *rand.Rand, m []byte) {
	for i := range m {
		if c.ones {
			m[i] = 0xff
		} else {
			m[i] = byte(rng.Uint32())
		}
	}
}

func edgeCases(rng *rand.Rand) []edgeCase {
	var cs []edgeCase
	for i := 0; i < 3; i++ {
		c := edgeCase{name: fmt.Sprintf("random #%d", i)}
		fill(rng, c.key[:])
		cs = append(cs, c)
	}
	ones := edgeCase{name: "all-ones key and message", ones: true}
	for i := range ones.key {
		ones.key[i] = 0xff
	}
	rZero := edgeCase{name: "r = 0, all-ones message", ones: true}
	fill(rng, rZero.key[16:])
	sZero := edgeCase{name: "s = 0, all-ones message", ones: true}
	fill(rng, sZero.key[:16])
	binary.LittleEndian.PutUint64(sZero.key[0:], 0xFFFFFFFFFFFFFFFF)
	return append(cs, ones, rZero, sZero)
}
