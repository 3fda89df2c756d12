// Package compose registers whole-operation kernels (an ML-KEM key
// generation, an ML-DSA signature) whose variants are compositions of the
// underlying kernels' choices: the Keccak way count × the NTT tier, say.
// Each variant applies its choices (through the kernel packages' lab hooks,
// e.g. sha3.UseWays and kernelset.UseAll) around the operation and
// restores the dispatched ones afterwards, so that one worker can race the
// compositions against each other, interleaved, like any other variants.
package compose

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A Choice is one value of a knob: its name, the CPU features it runs,
// and how to apply it (Use returns the function that undoes it).
type Choice struct {
	Value    string
	Features []string
	Use      func() (restore func(), err error)
}

// A Knob is one axis of the composition, e.g. "ways" or "ntt". Generic is
// the choice the reference variant (isa=generic) makes; Choices are the
// values the compositions combine.
type Knob struct {
	Key     string
	Generic Choice
	Choices []Choice
}

// An Op is a whole operation. New prepares its inputs from seed and
// returns run, which performs the operation once, and output, which
// returns the bytes of the last run's result (keys, ciphertext, shared
// key, signature): compositions must agree on them byte for byte.
type Op struct {
	Kernel variant.Kernel
	New    func(seed uint64) (run func(), output func() []byte)
}

// RegisterKernels registers each op's kernel (marked Allocates and
// Operation). Operation kernels are lab kernels: a family registers them
// in its RegisterVariants, never at init, and reference implementations
// (lab/baselines) call that before adding their variants.
func RegisterKernels(ops ...Op) {
	for _, op := range ops {
		k := op.Kernel
		k.Allocates, k.Operation = true, true
		variant.RegisterKernel(k)
	}
}

// Register registers, for each of ops, its reference variant and one
// variant per combination of the knobs' choices, named "key=value/..." in
// knob order; the ops' kernels must be registered. Combinations whose
// features the host lacks are registered too (the harness skips them, as
// it does every variant it cannot run).
func Register(ops []Op, knobs ...Knob) {
	ref := make([]Choice, len(knobs))
	for i, kn := range knobs {
		ref[i] = kn.Generic
	}
	combos := combinations(knobs)
	for _, op := range ops {
		want := newReference(ref)
		variant.Register(composition(op, variant.GenericName, ref, want))
		for _, combo := range combos {
			variant.Register(composition(op, name(knobs, combo), combo, want))
		}
	}
}

// A reference is an op's reference combination and its outputs by seed,
// computed once: every composition of the op is checked against them, and
// running the reference (the generic code) costs more than a check.
type reference struct {
	choices []Choice
	mu      sync.Mutex
	outputs map[uint64][]byte
}

func newReference(choices []Choice) *reference {
	return &reference{choices: choices, outputs: map[uint64][]byte{}}
}

// output returns the reference combination's output on seed's inputs.
func (r *reference) output(op Op, seed uint64) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if out, ok := r.outputs[seed]; ok {
		return out, nil
	}
	out, err := outputUnder(op, r.choices, seed)
	if err == nil {
		r.outputs[seed] = out
	}
	return out, err
}

// combinations returns every combination of the knobs' choices, the first
// knob varying slowest.
func combinations(knobs []Knob) [][]Choice {
	out := [][]Choice{nil}
	for _, kn := range knobs {
		var next [][]Choice
		for _, prefix := range out {
			for _, c := range kn.Choices {
				next = append(next, append(slices.Clone(prefix), c))
			}
		}
		out = next
	}
	return out
}

func name(knobs []Knob, combo []Choice) string {
	parts := make([]string, len(knobs))
	for i, kn := range knobs {
		parts[i] = kn.Key + "=" + combo[i].Value
	}
	return strings.Join(parts, "/")
}

// composition returns the registry variant of one combination; Verify and
// Check compare its output with the reference combination's.
func composition(op Op, name string, combo []Choice, ref *reference) variant.Variant {
	var features []string
	for _, c := range combo {
		features = append(features, c.Features...)
	}
	slices.Sort(features)
	return variant.Variant{
		Kernel: op.Kernel.Name, Name: name, Features: slices.Compact(features),
		New: func(_ int, seed uint64) variant.Instance {
			return &instance{op: op, name: name, combo: combo, ref: ref, seed: seed}
		},
		Verify: func(_ int, seed uint64) error {
			in := &instance{op: op, name: name, combo: combo, ref: ref, seed: seed}
			return in.Check()
		},
	}
}

// An instance runs one composition on inputs derived from seed.
type instance struct {
	op     Op
	name   string
	combo  []Choice
	ref    *reference
	seed   uint64
	run    func()
	output func() []byte
}

// Run applies the composition, performs the operation n times and
// restores the dispatched choices. A choice that cannot be applied (the
// harness runs only variants the host can) panics.
func (in *instance) Run(n int) {
	if in.run == nil {
		in.run, in.output = in.op.New(in.seed)
	}
	restore, err := apply(in.combo)
	if err != nil {
		panic(err)
	}
	defer restore()
	for i := 0; i < n; i++ {
		in.run()
	}
}

// Check runs the operation once under the composition and compares the
// output with the reference choices' on the same inputs (run once per
// seed for all compositions of the op).
func (in *instance) Check() error {
	got, err := outputUnder(in.op, in.combo, in.seed)
	if err != nil {
		return err
	}
	want, err := in.ref.output(in.op, in.seed)
	if err != nil {
		return err
	}
	if i := firstDiff(got, want); i >= 0 {
		return &variant.Mismatch{Kernel: in.op.Kernel.Name, Variant: in.name, Input: fmt.Sprintf("seed %#x", in.seed),
			Index: i, Got: byteAt(got, i), Want: byteAt(want, i)}
	}
	return nil
}

// outputUnder runs the operation on seed's inputs under combo.
func outputUnder(op Op, combo []Choice, seed uint64) ([]byte, error) {
	restore, err := apply(combo)
	if err != nil {
		return nil, err
	}
	defer restore()
	run, output := op.New(seed)
	run()
	return bytes.Clone(output()), nil
}

// apply applies every choice of combo, or none when one fails.
func apply(combo []Choice) (restore func(), err error) {
	return useEach(len(combo), func(i int) (func(), error) {
		c := combo[i]
		if !cpu.Has(c.Features...) {
			return nil, fmt.Errorf("compose: %s needs CPU features this host lacks: %v", c.Value, c.Features)
		}
		return c.Use()
	})
}

// useEach calls use(0), ..., use(n-1) and returns a function that undoes
// them in reverse order; when one fails, it undoes those before it and
// returns the error.
func useEach(n int, use func(i int) (restore func(), err error)) (restore func(), err error) {
	var undo []func()
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	for i := range n {
		r, err := use(i)
		if err != nil {
			restore()
			return nil, err
		}
		undo = append(undo, r)
	}
	return restore, nil
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

func byteAt(b []byte, i int) string {
	if i < len(b) {
		return fmt.Sprintf("%#02x (of %d bytes)", b[i], len(b))
	}
	return fmt.Sprintf("end (%d bytes)", len(b))
}
