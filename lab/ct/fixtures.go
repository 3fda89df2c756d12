package ct

import (
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/lab/ct/leaks"
)

// A Fixture is one planted leak of package leaks (or the clean control),
// with the static finding it must have and its dynamic classes.
type Fixture struct {
	Name   string // target name suffix: "table", "compare", "divide", "control"
	Symbol string // the generated function
	// Kind is the static finding kind the fixture must have; "" for the
	// control, which must have none.
	Kind    string
	Classes string
}

// Fixtures lists the planted leaks and the control.
var Fixtures = []Fixture{
	{"table", "lookupTable", Address, "fixed vs random 16-byte key indexing a 1 MiB table (a page per byte value)"},
	{"compare", "earlyExit", Branch, "secret equal to the reference vs random (early-exit compare, 256 bytes)"},
	{"divide", "secretDivide", Latency, "divisors all 1 vs random 64-bit (eight chained DIVQ)"},
	{"control", "ctCompare", "", "secret equal to the reference vs random (constant-time compare, 256 bytes)"},
}

// leakTarget measures one fixture.
type leakTarget struct {
	name  string
	rng   *rand.Rand
	key   [16]byte
	fixed [16]byte
	tmp   [256]byte
	table *[leaks.TableSize]byte
	a, b  [256]byte
	x, d  [8]uint64
	dTmp  [8]uint64
	sink  uint64
}

func newLeakTarget(name string, rng *rand.Rand) (*leakTarget, error) {
	if !leaks.Available() {
		return nil, fmt.Errorf("the planted leaks are assembly, not built here (amd64 without purego only)")
	}
	t := &leakTarget{name: name, rng: rng}
	switch name {
	case "table":
		t.table = new([leaks.TableSize]byte)
		for i := range t.table {
			t.table[i] = byte(rng.Uint32())
		}
		fill(rng, t.fixed[:])
	case "compare", "control":
		fill(rng, t.b[:])
	case "divide":
		for i := range t.x {
			t.x[i] = rng.Uint64()
		}
	default:
		return nil, fmt.Errorf("unknown planted leak %q", name)
	}
	return t, nil
}

func fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

// pick writes the input of a class into dst the same way for both: it
// draws random bytes into tmp, then copies the fixed bytes (class 0) or
// tmp (class 1) into dst, so that the last writes before the timed call,
// and everything before them, are the same work whatever the class.
func pick(rng *rand.Rand, dst, fixed, tmp []byte, class int) {
	fill(rng, tmp)
	src := fixed
	if class == 1 {
		src = tmp
	}
	copy(dst, src)
}

// Prepare writes the class's input with the same work for either class
// (see pick).
func (t *leakTarget) Prepare(class int) {
	switch t.name {
	case "table":
		pick(t.rng, t.key[:], t.fixed[:], t.tmp[:16], class)
	case "compare", "control":
		pick(t.rng, t.a[:], t.b[:], t.tmp[:], class)
	case "divide":
		for i := range t.dTmp {
			t.dTmp[i] = t.rng.Uint64() | 1<<63
		}
		ones := [8]uint64{1, 1, 1, 1, 1, 1, 1, 1}
		src := &ones
		if class == 1 {
			src = &t.dTmp
		}
		t.d = *src
	}
}

func (t *leakTarget) Run() {
	switch t.name {
	case "table":
		t.sink += leaks.LookupTable(&t.key, t.table)
	case "compare":
		t.sink += leaks.EarlyExit(&t.a, &t.b)
	case "control":
		t.sink += leaks.CTCompare(&t.a, &t.b)
	case "divide":
		t.sink += leaks.SecretDivide(&t.x, &t.d)
	}
}
