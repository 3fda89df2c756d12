package poly1305

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Kernel is the dispatch name of Poly1305.
const kernel = "poly1305"

// sizes are the default sweep sizes in bytes.
var sizes = []int{16, 64, 256, 1024, 16384, 1 << 20}

// An impl is one implementation: the generic Go code (Fn nil) or a
// generated variant, Fn saying how to call it. A variant of the
// production set (zprod_amd64.go: those the compiled dispatch table can
// select) runs through the production switches; one that only the lab
// set has (lab: added by RegisterVariants) runs through labCalls.
type impl struct {
	variant.Impl[*asmVariant]
	lab bool
}

// apiSum computes the MAC for the public API: no pointer argument
// escapes, so that Sum and Verify allocate nothing. A lab variant runs on
// heap copies (sumCopy).
func (im *impl) apiSum(out *[16]byte, m []byte, key *[32]byte) {
	switch {
	case im.Fn == nil:
		sumGeneric(out, m, key)
	case im.lab:
		sumCopy(im, out, m, key)
	default:
		prodSum(im.Fn, out, m, key)
	}
}

// apiBlocks adds the full blocks of m (len(m) a multiple of 16) to st.h
// for a MAC's Write; pc, when non-nil, caches key powers across calls of
// one MAC. As with apiSum nothing escapes; a lab variant runs on heap
// copies (blocksCopy).
func (im *impl) apiBlocks(st *state, m []byte, pc *powCache) {
	switch {
	case im.Fn == nil:
		blocksGeneric(&st.h, &st.r, m, 1)
	case im.lab:
		blocksCopy(im, st, m, pc)
	default:
		prodBlocks(im.Fn, st, m, pc)
	}
}

// sum computes the MAC with im on the caller's memory, for lab code
// (instances, verification, tests): a lab variant runs through labCalls,
// a func value, so out, m and key escape to the heap.
func (im *impl) sum(out *[16]byte, m []byte, key *[32]byte) {
	if im.lab {
		labCalls.sum(im.Fn, out, m, key)
		return
	}
	im.apiSum(out, m, key)
}

var generic = &impl{Impl: variant.Impl[*asmVariant]{Name: variant.GenericName}}

// impls lists every implementation, generic first, then the generated
// variants in generation order: the production set, and after
// RegisterVariants every variant.
var impls = append([]*impl{generic}, platformImpls()...)

// plan is the dispatch plan and selected[i] the implementation of plan[i].
var (
	plan     []dispatch.Choice
	selected []*impl
)

func init() {
	variant.RegisterKernel(variant.Kernel{Name: kernel, Family: "poly1305", Bench: "Poly1305",
		Sizes: sizes, SizeClasses: true, Unit: "B", UnitsPerOp: func(n int) float64 { return float64(n) },
		Doc: "Poly1305 one-time MAC (RFC 8439) of an n-byte message"})
	for _, im := range impls {
		variant.Register(im.variant())
	}
	replan()
}

// replan plans dispatch among impls (offset-sweep copies never).
func replan() {
	records := make([]variant.Impl[*asmVariant], 0, len(impls)-1)
	for _, im := range impls[1:] {
		records = append(records, im.Impl)
	}
	plan = dispatch.Plan(kernel, variant.Candidates(records))
	selected = make([]*impl, len(plan))
	for i, c := range plan {
		selected[i] = lookup(c.Variant)
	}
}

// lookup returns the implementation named name, generic if none is.
func lookup(name string) *impl {
	for _, im := range impls {
		if im.Name == name {
			return im
		}
	}
	return generic
}

// pick returns the index in selected of the implementation for n bytes.
func pick(n int) int { return dispatch.ForSize(plan, n) }

func (im *impl) variant() variant.Variant {
	v := im.Variant(kernel)
	v.New = func(size int, seed uint64) variant.Instance { return newInstance(im, size, seed) }
	v.Verify = im.verify
	v.LoopTrips = loopTrips(&v)
	return v
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

// An instance is a prepared key and message.
type instance struct {
	im  *impl
	key [32]byte
	msg []byte
	tag [16]byte
}

func newInstance(im *impl, size int, seed uint64) *instance {
	in := &instance{im: im, msg: make([]byte, size)}
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
	switch im := in.im; {
	case im.Fn == nil:
		for i := 0; i < n; i++ {
			sumGeneric(&in.tag, in.msg, &in.key)
		}
	case im.lab:
		labCalls.run(im.Fn, n, &in.tag, in.msg, &in.key)
	default:
		prodRun(im.Fn, n, &in.tag, in.msg, &in.key)
	}
}

// Check recomputes the MAC and compares it with the reference.
func (in *instance) Check() error {
	return in.im.compare(fmt.Sprintf("instance (%d bytes)", len(in.msg)), in.msg, &in.key)
}

// compare checks im against the reference on one input: the generic code
// for generated variants, a math/big computation for the generic code.
func (im *impl) compare(input string, m []byte, key *[32]byte) error {
	var got, want [16]byte
	im.sum(&got, m, key)
	if im == generic {
		sumBig(&want, m, key)
	} else {
		sumGeneric(&want, m, key)
	}
	for i := range got {
		if got[i] != want[i] {
			return &variant.Mismatch{Kernel: kernel, Variant: im.Name, Input: input, Index: i,
				Got: fmt.Sprintf("%x", got), Want: fmt.Sprintf("%x", want)}
		}
	}
	return nil
}

// verify checks im on random inputs of size bytes and on edge cases: keys
// with r = 0, s = 0 or all bits set, all-ones messages.
func (im *impl) verify(size int, seed uint64) error {
	if im == generic {
		size = min(size, 1<<16) // the math/big reference is slow
	}
	rng := rand.New(rand.NewPCG(seed, 0x1305))
	m := make([]byte, size)
	for _, c := range edgeCases(rng) {
		c.fillMsg(rng, m)
		input := fmt.Sprintf("%s, %d bytes (seed %#x)", c.name, size, seed)
		if err := im.compare(input, m, &c.key); err != nil {
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
