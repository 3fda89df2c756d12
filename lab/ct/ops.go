package ct

import (
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/mlkemtest"
)

// The whole operations' targets, on the public API of kernels/mlkem and
// kernels/mldsa (what production calls, on the variants dispatch
// selects). Each input is prepared the same way for both classes; only
// the secret differs: fixed for class 0, fresh random for class 1.

// An opClasses is one way to split an operation's inputs into classes.
type opClasses struct {
	op, classes, what string
	// variable, if set, says why the time legitimately differs.
	variable string
}

// opTargets lists the operations' targets per parameter set.
var opTargets = []opClasses{
	{"keygen", "seed", "fixed vs random seed d || z",
		"ρ = G(d)[:32] is public (the encapsulation key holds it) and ExpandA rejection-samples Â from it: the SHAKE128 blocks read and the rejection loop's branches depend on ρ, and a fixed ρ trains the branch predictor"},
	{"keygen", "z", "fixed vs random z, d fixed (ρ and σ fixed: only the implicit-rejection seed varies)", ""},
	{"encaps", "randomness", "fixed vs random encapsulation randomness m (fixed key)", ""},
	{"decaps", "key", "fixed vs random key, each with a fresh valid ciphertext", ""},
	{"decaps", "ciphertext", "valid vs invalid (random) ciphertext, fixed key: implicit rejection", ""},
}

var dsaTargets = []opClasses{
	{"keygen", "seed", "fixed vs random seed ξ",
		"ExpandA samples Â from the public ρ, and ExpandS rejection-samples s1, s2 from ρ′: how many candidates are rejected (FIPS 204 allows it: independent of the accepted coefficients) and the branches on ρ vary with the seed"},
	{"sign", "key", "fixed vs random key, fixed message (deterministic signing)",
		"the rejection loop runs a key- and message-dependent number of times (FIPS 204 allows it: a rejected attempt reveals nothing of the key)"},
}

// A kemSet adapts one ML-KEM parameter set.
type kemSet struct {
	name   string
	ctSize int
	newKey func(seed []byte) (kemKey, error)
	// encaps encapsulates to k's encapsulation key with randomness m.
	encaps func(k kemKey, m []byte) (ct []byte, err error)
}

type kemKey interface {
	Decapsulate(ciphertext []byte) ([]byte, error)
}

var kemSets = []kemSet{
	{"mlkem512", mlkem.CiphertextSize512,
		func(seed []byte) (kemKey, error) { return mlkem.NewDecapsulationKey512(seed) },
		func(k kemKey, m []byte) ([]byte, error) {
			_, ct, err := mlkemtest.Encapsulate512(k.(*mlkem.DecapsulationKey512).EncapsulationKey(), m)
			return ct, err
		}},
	{"mlkem768", mlkem.CiphertextSize768,
		func(seed []byte) (kemKey, error) { return mlkem.NewDecapsulationKey768(seed) },
		func(k kemKey, m []byte) ([]byte, error) {
			_, ct, err := mlkemtest.Encapsulate768(k.(*mlkem.DecapsulationKey768).EncapsulationKey(), m)
			return ct, err
		}},
	{"mlkem1024", mlkem.CiphertextSize1024,
		func(seed []byte) (kemKey, error) { return mlkem.NewDecapsulationKey1024(seed) },
		func(k kemKey, m []byte) ([]byte, error) {
			_, ct, err := mlkemtest.Encapsulate1024(k.(*mlkem.DecapsulationKey1024).EncapsulationKey(), m)
			return ct, err
		}},
}

// A dsaSet adapts one ML-DSA parameter set.
type dsaSet struct {
	name   string
	newKey func(seed []byte) (dsaKey, error)
}

type dsaKey interface {
	SignDeterministic(msg, context []byte) ([]byte, error)
}

var dsaSets = []dsaSet{
	{"mldsa44", func(seed []byte) (dsaKey, error) { return mldsa.NewPrivateKey44(seed) }},
	{"mldsa65", func(seed []byte) (dsaKey, error) { return mldsa.NewPrivateKey65(seed) }},
	{"mldsa87", func(seed []byte) (dsaKey, error) { return mldsa.NewPrivateKey87(seed) }},
}

// An opTarget measures one operation of one parameter set.
type opTarget struct {
	rng         *rand.Rand
	fixed, seed []byte // the fixed secret and the current one
	m           [32]byte
	prepare     func(class int)
	run         func()
	err         error
	sink        int
}

func (t *opTarget) Prepare(class int) { t.prepare(class) }
func (t *opTarget) Run()              { t.run() }

// draw fills t.seed with random bytes, then, for class 0, the fixed
// secret: the same work for both classes.
func (t *opTarget) draw(class int) {
	fill(t.rng, t.seed)
	if class == 0 {
		copy(t.seed, t.fixed)
	}
}

func (t *opTarget) check(err error) {
	if err != nil && t.err == nil {
		t.err = err
		panic(fmt.Sprintf("ct: preparing an operation's input: %v", err))
	}
}

func newOpTarget(op, classes string, rng *rand.Rand) (*opTarget, error) {
	for _, s := range kemSets {
		if op == s.name+".keygen" || op == s.name+".encaps" || op == s.name+".decaps" {
			return newKEMTarget(s, op[len(s.name)+1:], classes, rng)
		}
	}
	for _, s := range dsaSets {
		if op == s.name+".keygen" || op == s.name+".sign" {
			return newDSATarget(s, op[len(s.name)+1:], classes, rng)
		}
	}
	return nil, fmt.Errorf("unknown operation %q", op)
}

func newKEMTarget(s kemSet, op, classes string, rng *rand.Rand) (*opTarget, error) {
	t := &opTarget{rng: rng, fixed: make([]byte, mlkem.SeedSize), seed: make([]byte, mlkem.SeedSize)}
	fill(rng, t.fixed)
	key, err := s.newKey(t.fixed) // the fixed key
	if err != nil {
		return nil, err
	}
	var ct []byte
	switch op + "/" + classes {
	case "keygen/seed":
		t.prepare = t.draw
		t.run = func() {
			_, err := s.newKey(t.seed)
			t.check(err)
		}
	case "keygen/z":
		t.prepare = func(class int) {
			t.draw(class)
			copy(t.seed[:32], t.fixed[:32])
		}
		t.run = func() {
			_, err := s.newKey(t.seed)
			t.check(err)
		}
	case "encaps/randomness":
		fixedM := t.m
		fill(rng, fixedM[:])
		t.prepare = func(class int) {
			fill(rng, t.m[:])
			if class == 0 {
				t.m = fixedM
			}
		}
		t.run = func() {
			ct, err := s.encaps(key, t.m[:])
			t.check(err)
			t.sink += len(ct)
		}
	case "decaps/key":
		var k kemKey
		t.prepare = func(class int) {
			t.draw(class)
			var err error
			k, err = s.newKey(t.seed)
			t.check(err)
			fill(rng, t.m[:])
			ct, err = s.encaps(k, t.m[:])
			t.check(err)
		}
		t.run = func() {
			ss, err := k.Decapsulate(ct)
			t.check(err)
			t.sink += len(ss)
		}
	case "decaps/ciphertext":
		junk := make([]byte, s.ctSize)
		t.prepare = func(class int) {
			fill(rng, t.m[:])
			var err error
			ct, err = s.encaps(key, t.m[:])
			t.check(err)
			fill(rng, junk)
			if class == 1 {
				copy(ct, junk) // random bytes: invalid but for 2^-256
			}
		}
		t.run = func() {
			ss, err := key.Decapsulate(ct)
			t.check(err)
			t.sink += len(ss)
		}
	default:
		return nil, fmt.Errorf("unknown classes %q of %s.%s", classes, s.name, op)
	}
	return t, nil
}

func newDSATarget(s dsaSet, op, classes string, rng *rand.Rand) (*opTarget, error) {
	t := &opTarget{rng: rng, fixed: make([]byte, mldsa.SeedSize), seed: make([]byte, mldsa.SeedSize)}
	fill(rng, t.fixed)
	msg := make([]byte, 1024)
	fill(rng, msg)
	switch op + "/" + classes {
	case "keygen/seed":
		t.prepare = t.draw
		t.run = func() {
			_, err := s.newKey(t.seed)
			t.check(err)
		}
	case "sign/key":
		var k dsaKey
		t.prepare = func(class int) {
			t.draw(class)
			var err error
			k, err = s.newKey(t.seed)
			t.check(err)
		}
		t.run = func() {
			sig, err := k.SignDeterministic(msg, nil)
			t.check(err)
			t.sink += len(sig)
		}
	default:
		return nil, fmt.Errorf("unknown classes %q of %s.%s", classes, s.name, op)
	}
	return t, nil
}
