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

// A kemPair is a key with a valid ciphertext for it.
type kemPair struct {
	key kemKey
	ct  []byte
}

// poolSize is the number of inputs of each class a decapsulation target
// prepares at setup.
const poolSize = 256

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
	rng              *rand.Rand
	fixed, seed, tmp []byte // the fixed secret, the current one, scratch
	m, fixedM, tmpM  [32]byte
	prepare          func(class int)
	run              func()
	err              error
	sink             int
}

func (t *opTarget) Prepare(class int) { t.prepare(class) }
func (t *opTarget) Run()              { t.run() }

// draw sets t.seed to the class's secret with the same work for both
// classes (see pick).
func (t *opTarget) draw(class int) { pick(t.rng, t.seed, t.fixed, t.tmp, class) }

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

// bothClasses makes an input of each class, 0 and 1, in random order,
// and returns the one of class: the work done before the timed call is
// then the same whatever the class.
func bothClasses[T any](rng *rand.Rand, class int, input func(class int) T) T {
	var made [2]T
	first := rng.IntN(2)
	for i := range 2 {
		c := first ^ i
		made[c] = input(c)
	}
	return made[class]
}

// classKey draws the class's seed (see draw) and makes its key with
// newKey, outside the timed call.
func classKey[K any](t *opTarget, class int, newKey func(seed []byte) (K, error)) K {
	t.draw(class)
	k, err := newKey(t.seed)
	t.check(err)
	return k
}

// keygenRun returns the timed call of a key generation: the key of the
// seed Prepare set.
func keygenRun[K any](t *opTarget, newKey func(seed []byte) (K, error)) func() {
	return func() {
		_, err := newKey(t.seed)
		t.check(err)
	}
}

// newKEMTarget returns the target of op (keygen, encaps or decaps) of the
// ML-KEM parameter set s for the input classes named classes.
func newKEMTarget(s kemSet, op, classes string, rng *rand.Rand) (*opTarget, error) {
	t := &opTarget{rng: rng, fixed: make([]byte, mlkem.SeedSize), seed: make([]byte, mlkem.SeedSize), tmp: make([]byte, mlkem.SeedSize)}
	fill(rng, t.fixed)
	key, err := s.newKey(t.fixed) // the fixed key
	if err != nil {
		return nil, err
	}
	switch op + "/" + classes {
	case "keygen/seed":
		t.prepare = t.draw
		t.run = keygenRun(t, s.newKey)
	case "keygen/z":
		t.prepare = func(class int) {
			t.draw(class)
			copy(t.seed[:32], t.fixed[:32])
		}
		t.run = keygenRun(t, s.newKey)
	case "encaps/randomness":
		fill(rng, t.fixedM[:])
		t.prepare = func(class int) { pick(rng, t.m[:], t.fixedM[:], t.tmpM[:], class) }
		t.run = func() {
			ct, err := s.encaps(key, t.m[:])
			t.check(err)
			t.sink += len(ct)
		}
	case "decaps/key":
		decapsKeyClasses(t, s)
	case "decaps/ciphertext":
		if err := decapsCiphertextClasses(t, s, key); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown classes %q of %s.%s", classes, s.name, op)
	}
	return t, nil
}

// decapsKeyClasses sets t to time decapsulation with the fixed key or a
// random one. Prepare makes both classes' inputs, in random order, and
// keeps one: a key from the fixed seed and one from a random seed, each
// with a fresh valid ciphertext. The work before the timed call (key
// generation leaves ρ-dependent state in caches and predictors) is then
// the same whatever the class.
func decapsKeyClasses(t *opTarget, s kemSet) {
	var cur kemPair
	t.prepare = func(class int) {
		cur = bothClasses(t.rng, class, func(c int) kemPair {
			k := classKey(t, c, s.newKey)
			fill(t.rng, t.m[:])
			ct, err := s.encaps(k, t.m[:])
			t.check(err)
			return kemPair{k, ct}
		})
	}
	t.run = func() {
		ss, err := cur.key.Decapsulate(cur.ct)
		t.check(err)
		t.sink += len(ss)
	}
}

// decapsCiphertextClasses sets t to time decapsulation with key of a
// valid or a random ciphertext. Pools of poolSize valid ciphertexts
// (fresh encapsulations to key) and poolSize random ones (invalid but for
// 2^-256) are made here, at setup; Prepare copies one of its class's pool
// into the ciphertext decapsulated.
func decapsCiphertextClasses(t *opTarget, s kemSet, key kemKey) error {
	var pool [2][][]byte
	for range poolSize {
		fill(t.rng, t.m[:])
		c, err := s.encaps(key, t.m[:])
		if err != nil {
			return err
		}
		junk := make([]byte, s.ctSize)
		fill(t.rng, junk)
		pool[0], pool[1] = append(pool[0], c), append(pool[1], junk)
	}
	ct := make([]byte, s.ctSize)
	t.prepare = func(class int) { copy(ct, pool[class][t.rng.IntN(poolSize)]) }
	t.run = func() {
		ss, err := key.Decapsulate(ct)
		t.check(err)
		t.sink += len(ss)
	}
	return nil
}

func newDSATarget(s dsaSet, op, classes string, rng *rand.Rand) (*opTarget, error) {
	t := &opTarget{rng: rng, fixed: make([]byte, mldsa.SeedSize), seed: make([]byte, mldsa.SeedSize), tmp: make([]byte, mldsa.SeedSize)}
	fill(rng, t.fixed)
	msg := make([]byte, 1024)
	fill(rng, msg)
	switch op + "/" + classes {
	case "keygen/seed":
		t.prepare = t.draw
		t.run = keygenRun(t, s.newKey)
	case "sign/key":
		// Both classes' keys are made, in random order (see decaps/key).
		var k dsaKey
		t.prepare = func(class int) {
			k = bothClasses(rng, class, func(c int) dsaKey { return classKey(t, c, s.newKey) })
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
