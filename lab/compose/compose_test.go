package compose

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/variant"
)

// The fake operation sums seed-derived words with a "multiplier" and an
// "adder" that knobs choose; choices agree unless broken is set.
var (
	mul, add int
	broken   bool
)

func setter(p *int, v int) func() (func(), error) {
	return func() (func(), error) {
		old := *p
		*p = v
		return func() { *p = old }, nil
	}
}

func fakeOp(kernel string) Op {
	return Op{Kernel: variant.Kernel{Name: kernel, Family: "test", Bench: "Fake"},
		New: func(seed uint64) (func(), func() []byte) {
			var out uint64
			run := func() {
				out = seed*uint64(mul) + uint64(add)
				if broken && mul == 3 {
					out++
				}
			}
			return run, func() []byte { return binary.LittleEndian.AppendUint64(nil, out) }
		}}
}

// runs counts the runs of each test that registers a kernel: the
// registry is global to the test binary, so when go test -count runs a
// test again it registers a kernel of a fresh name (name, name.2, ...).
var runs = map[string]int{}

// fresh returns the kernel name for this run of the test registering name.
func fresh(name string) string {
	runs[name]++
	if n := runs[name]; n > 1 {
		return fmt.Sprintf("%s.%d", name, n)
	}
	return name
}

func knobs() []Knob {
	m := Knob{Key: "mul", Generic: Choice{Value: "generic", Use: setter(&mul, 1)},
		Choices: []Choice{{Value: "one", Use: setter(&mul, 1)}, {Value: "three", Use: setter(&mul, 3), Features: []string{"avx2"}}}}
	a := Knob{Key: "add", Generic: Choice{Value: "generic", Use: setter(&add, 0)},
		Choices: []Choice{{Value: "zero", Use: setter(&add, 0)}}}
	return []Knob{m, a}
}

func TestRegisterCompositions(t *testing.T) {
	k := fresh("test.compose")
	RegisterKernels(fakeOp(k))
	Register([]Op{fakeOp(k)}, knobs()...)
	var names []string
	for _, v := range variant.Variants(k) {
		names = append(names, v.Name)
	}
	want := "isa=generic mul=one/add=zero mul=three/add=zero"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("variants %q, want %q", got, want)
	}
	if kn := variant.LookupKernel(k); kn == nil || !kn.Allocates || !kn.Operation {
		t.Errorf("kernel %+v, want registered with Allocates and Operation", kn)
	}
	v := variant.Lookup(k, "mul=three/add=zero")
	if len(v.Features) != 1 || v.Features[0] != "avx2" {
		t.Errorf("features %v, want the choices' union [avx2]", v.Features)
	}
}

func TestCompositionRunsAndRestores(t *testing.T) {
	mul, add = 7, 7
	combo := []Choice{{Value: "three", Use: setter(&mul, 3)}, {Value: "zero", Use: setter(&add, 0)}}
	ref := []Choice{{Value: "generic", Use: setter(&mul, 3)}, {Value: "generic", Use: setter(&add, 0)}}
	in := &instance{op: fakeOp("x"), name: "mul=three/add=zero", combo: combo, ref: newReference(ref), seed: 5}
	in.Run(3)
	if mul != 7 || add != 7 {
		t.Errorf("after Run: mul=%d add=%d, want the choices restored to 7, 7", mul, add)
	}
	if err := in.Check(); err != nil {
		t.Errorf("Check of agreeing choices: %v", err)
	}
	broken = true
	defer func() { broken = false }()
	ref[0] = Choice{Value: "generic", Use: setter(&mul, 1)}
	in.ref = newReference(ref)
	err := in.Check()
	var mm *variant.Mismatch
	if !errors.As(err, &mm) || mm.Variant != "mul=three/add=zero" {
		t.Errorf("Check of a composition that disagrees with the reference: %v, want a mismatch naming it", err)
	}
}

func TestApplyRefusesMissingFeatures(t *testing.T) {
	mul = 9
	_, err := apply([]Choice{{Value: "one", Use: setter(&mul, 1)}, {Value: "x", Features: []string{"nosuchfeature"}, Use: setter(&add, 1)}})
	if err == nil || mul != 9 {
		t.Errorf("apply with an unrunnable choice: err %v, mul %d; want an error and nothing applied", err, mul)
	}
}

// TestReferenceRunsOncePerSeed checks that the compositions of an op share
// the reference output of a seed: the reference choices apply once per
// seed, however many compositions are checked.
func TestReferenceRunsOncePerSeed(t *testing.T) {
	mul, add = 7, 7
	uses := 0
	counted := func() (func(), error) { uses++; return setter(&mul, 3)() }
	ref := newReference([]Choice{{Value: "generic", Use: counted}, {Value: "generic", Use: setter(&add, 0)}})
	combo := []Choice{{Value: "three", Use: setter(&mul, 3)}, {Value: "zero", Use: setter(&add, 0)}}
	for _, seed := range []uint64{5, 5, 6, 5} {
		for _, name := range []string{"a", "b"} {
			in := &instance{op: fakeOp("x"), name: name, combo: combo, ref: ref, seed: seed}
			if err := in.Check(); err != nil {
				t.Fatalf("Check of %s at seed %d: %v", name, seed, err)
			}
		}
	}
	if uses != 2 {
		t.Errorf("reference applied %d times for seeds 5 and 6, want 2", uses)
	}
}
