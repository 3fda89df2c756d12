package mlkem_test

import (
	"bytes"
	"crypto"
	"crypto/sha3"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// The key types have the shapes of crypto/mlkem's.
var (
	_ crypto.Decapsulator = (*mlkem.DecapsulationKey512)(nil)
	_ crypto.Decapsulator = (*mlkem.DecapsulationKey768)(nil)
	_ crypto.Decapsulator = (*mlkem.DecapsulationKey1024)(nil)
	_ crypto.Encapsulator = (*mlkem.EncapsulationKey512)(nil)
	_ crypto.Encapsulator = (*mlkem.EncapsulationKey768)(nil)
	_ crypto.Encapsulator = (*mlkem.EncapsulationKey1024)(nil)
)

// newRand returns a reproducible random stream named by name.
func newRand(name string) *rand.ChaCha8 {
	var seed [32]byte
	h := fnv.New64a()
	h.Write([]byte(name))
	copy(seed[:], h.Sum(nil))
	return rand.NewChaCha8(seed)
}

// firstDiff describes where a and b first differ, or returns "" if they
// are equal.
func firstDiff(a, b []byte) string {
	if bytes.Equal(a, b) {
		return ""
	}
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("byte %d of %d: %#02x, want %#02x", i, len(b), a[i], b[i])
		}
	}
	return fmt.Sprintf("length %d, want %d", len(a), len(b))
}

// TestDifferential compares keys, ciphertexts and shared keys byte for
// byte with crypto/mlkem (768, 1024) and circl (512, 768, 1024) on 1000
// random seeds per parameter set and reference (20 with -short): key
// generation, parsing, derandomized and random encapsulation both ways,
// decapsulation of honest and of random ciphertexts.
func TestDifferential(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 20
	}
	for _, ps := range paramSets {
		for _, ref := range ps.refs {
			t.Run(ps.name+"/"+ref.name, func(t *testing.T) {
				rng := newRand("differential/" + ps.name + "/" + ref.name)
				seed, m, junk := make([]byte, mlkem.SeedSize), make([]byte, 32), make([]byte, ps.ctSize)
				for i := range n {
					rng.Read(seed)
					rng.Read(m)
					rng.Read(junk)
					if err := compare(t, ps, ref, seed, m, junk); err != nil {
						t.Fatalf("#%d, seed %x, m %x: %v", i, seed, m, err)
					}
				}
			})
		}
	}
}

// compare runs one seed, message and random ciphertext through this
// package and ref.
func compare(t *testing.T, ps paramSet, ref impl, seed, m, junk []byte) error {
	tl := ps.tunelab
	dk, ek := tl.mustKey(t, seed)
	rdk, rek := ref.mustKey(t, seed)
	if d := firstDiff(ek.Bytes(), rek.Bytes()); d != "" {
		return fmt.Errorf("encapsulation key: %s", d)
	}
	pek, err := tl.parse(rek.Bytes())
	if err != nil {
		return fmt.Errorf("parsing the encapsulation key: %v", err)
	}
	key, c, err := tl.encapsulate(pek, m)
	if err != nil {
		return fmt.Errorf("derandomized encapsulation: %v", err)
	}
	rkey, rc, err := ref.encapsulate(rek, m)
	if err != nil {
		return fmt.Errorf("%s derandomized encapsulation: %v", ref.name, err)
	}
	if d := firstDiff(c, rc); d != "" {
		return fmt.Errorf("ciphertext: %s", d)
	}
	if d := firstDiff(key, rkey); d != "" {
		return fmt.Errorf("shared key: %s", d)
	}
	if err := decapsulatesTo(dk, rc, rkey, "the honest ciphertext"); err != nil {
		return err
	}
	rjunk, err := rdk.Decapsulate(junk)
	if err != nil {
		return fmt.Errorf("%s decapsulating a random ciphertext: %v", ref.name, err)
	}
	if err := decapsulatesTo(dk, junk, rjunk, "a random ciphertext"); err != nil {
		return err
	}
	for _, e := range []encapsulator{ek, pek} { // random encapsulation, from both kinds of key
		key, c := e.Encapsulate()
		if err := decapsulatesTo(rdk, c, key, ref.name+" decapsulating a random encapsulation"); err != nil {
			return err
		}
	}
	return nil
}

// decapsulatesTo checks that dk decapsulates c to want.
func decapsulatesTo(dk decapsulator, c, want []byte, what string) error {
	got, err := dk.Decapsulate(c)
	if err != nil {
		return fmt.Errorf("%s: %v", what, err)
	}
	if d := firstDiff(got, want); d != "" {
		return fmt.Errorf("%s: shared key %s", what, d)
	}
	return nil
}

// Accumulated known answers: the hash of a deterministic chain of
// operations, as C2SP CCTV defines it for ML-KEM ("accumulated" vectors).
// One SHAKE128 instance with empty input draws, per step, the seed d || z,
// the message m and a random ciphertext; another absorbs ek, the
// ciphertext and shared key of encapsulating m, and the shared key the
// random ciphertext decapsulates to; the test compares its first 32 output
// bytes. The ML-KEM-768 values are CCTV's (also in crypto/mlkem's
// TestAccumulated); the ML-KEM-1024 ones were computed once with
// crypto/mlkem and circl v1.6.5 (which agree), the ML-KEM-512 ones with
// circl v1.6.5.
var accumulated = map[string][2]string{ // 100 steps, 10000 steps
	"512":  {"86b1b4703b8ffef6f7f3290c6dbce4ad954498a0673ded401a94828e8c519a59", "e0112db334d4240ca6feed5b0beab1318925edd4ff7d840c2ebe6d61971fc14c"},
	"768":  {"1114b1b6699ed191734fa339376afa7e285c9e6acf6ff0177d346696ce564415", "8a518cc63da366322a8e7a818c7a0d63483cb3528d34a4cf42f35d5ad73f22fc"},
	"1024": {"800018fec3e2723f73f1d657fe239b4d5d8782efaade297e8cd448e54cc2ac00", "f1a3925c9cf8538bb104c56efb2f5ecb74cc3df25087460b73f6c873e96bcb6a"},
}

// TestAccumulated checks the accumulated known answers: 10000 steps per
// parameter set, 100 with -short.
func TestAccumulated(t *testing.T) {
	steps, which := 10000, 1
	if testing.Short() {
		steps, which = 100, 0
	}
	for _, ps := range paramSets {
		t.Run(ps.name, func(t *testing.T) {
			got, err := accumulate(t, ps, steps)
			if err != nil {
				t.Fatal(err)
			}
			if want := accumulated[ps.name][which]; got != want {
				t.Errorf("ML-KEM-%s, %d steps: accumulated hash %s, want %s", ps.name, steps, got, want)
			}
		})
	}
}

// accumulate runs the chain of TestAccumulated for steps steps.
func accumulate(t *testing.T, ps paramSet, steps int) (string, error) {
	draw, acc := sha3.NewSHAKE128(), sha3.NewSHAKE128()
	seed, m, junk := make([]byte, mlkem.SeedSize), make([]byte, 32), make([]byte, ps.ctSize)
	for i := range steps {
		draw.Read(seed)
		dk, ek := ps.tunelab.mustKey(t, seed)
		acc.Write(ek.Bytes())
		draw.Read(m)
		key, c, err := ps.tunelab.encapsulate(ek, m)
		if err != nil {
			return "", fmt.Errorf("step %d: encapsulation: %v", i, err)
		}
		acc.Write(c)
		acc.Write(key)
		if err := decapsulatesTo(dk, c, key, fmt.Sprintf("step %d: decapsulation", i)); err != nil {
			return "", err
		}
		draw.Read(junk)
		rejected, err := dk.Decapsulate(junk)
		if err != nil {
			return "", fmt.Errorf("step %d: decapsulating a random ciphertext: %v", i, err)
		}
		acc.Write(rejected)
	}
	sum := make([]byte, 32)
	acc.Read(sum)
	return hex.EncodeToString(sum), nil
}

// TestACVP checks NIST's ACVP known answers of FIPS 203 (testdata/acvp.txt):
// the encapsulation key of every keyGen test and the ciphertext and shared
// key of two encapsulation tests per parameter set.
func TestACVP(t *testing.T) {
	data, err := os.ReadFile("testdata/acvp.txt")
	if err != nil {
		t.Fatal(err)
	}
	sets := map[string]paramSet{}
	for _, ps := range paramSets {
		sets[ps.name] = ps
	}
	n := 0
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if err := checkACVP(t, sets[f[1]], f); err != nil {
			t.Errorf("testdata/acvp.txt:%d: ML-KEM-%s %s tcId %s: %v", i+1, f[1], f[0], f[2], err)
		}
		n++
	}
	if n != 3*25+3*2 {
		t.Errorf("testdata/acvp.txt: %d vectors, want 81", n)
	}
}

// checkACVP runs the vector of the fields f.
func checkACVP(t *testing.T, ps paramSet, f []string) error {
	b := make([][]byte, len(f))
	for i := 3; i < len(f); i++ {
		var err error
		if b[i], err = hex.DecodeString(f[i]); err != nil {
			return err
		}
	}
	switch {
	case f[0] == "keygen" && len(f) == 6:
		_, ek := ps.tunelab.mustKey(t, append(b[3], b[4]...))
		if h := sha3.Sum256(ek.Bytes()); !bytes.Equal(h[:], b[5]) {
			return fmt.Errorf("encapsulation key hash %x, want %x", h, b[5])
		}
	case f[0] == "encaps" && len(f) == 7:
		ek, err := ps.tunelab.parse(b[3])
		if err != nil {
			return err
		}
		key, c, err := ps.tunelab.encapsulate(ek, b[4])
		if err != nil {
			return err
		}
		if h := sha3.Sum256(c); !bytes.Equal(h[:], b[5]) || !bytes.Equal(key, b[6]) {
			return fmt.Errorf("ciphertext hash %x, shared key %x; want %x, %x", h, key, b[5], b[6])
		}
	default:
		return fmt.Errorf("malformed line")
	}
	return nil
}

// TestImplicitRejection flips one bit in every byte of an honest
// ciphertext (every 16th byte and the last with -short) and checks that
// decapsulation returns J(z || c), computed here with crypto/sha3, equal
// to what the first reference returns and not the honest key.
func TestImplicitRejection(t *testing.T) {
	for _, ps := range paramSets {
		t.Run(ps.name, func(t *testing.T) {
			ref := ps.refs[0]
			seed := make([]byte, mlkem.SeedSize)
			newRand("rejection/" + ps.name).Read(seed)
			dk, ek := ps.tunelab.mustKey(t, seed)
			rdk, _ := ref.mustKey(t, seed)
			key, c := ek.Encapsulate()
			step := 1
			if testing.Short() {
				step = 16
			}
			for i := 0; i < len(c); i += step {
				if err := rejects(dk, rdk, seed[32:], c, key, i); err != nil {
					t.Fatalf("%s: flipping bit %d of byte %d: %v", ref.name, i%8, i, err)
				}
			}
			if err := rejects(dk, rdk, seed[32:], c, key, len(c)-1); err != nil {
				t.Fatalf("%s: flipping the last byte: %v", ref.name, err)
			}
		})
	}
}

// rejects checks the decapsulation of c with bit i%8 of byte i flipped.
func rejects(dk, rdk decapsulator, z, c, honest []byte, i int) error {
	bad := bytes.Clone(c)
	bad[i] ^= 1 << (i % 8)
	want := sha3.SumSHAKE256(append(bytes.Clone(z), bad...), 32)
	if err := decapsulatesTo(dk, bad, want, "J(z || c)"); err != nil {
		return err
	}
	if err := decapsulatesTo(rdk, bad, want, "the reference"); err != nil {
		return err
	}
	if bytes.Equal(want, honest) {
		return fmt.Errorf("the rejection key is the honest key")
	}
	return nil
}

// lengthsBut returns every length from 0 to size+100 except size.
func lengthsBut(size int) []int {
	var ls []int
	for l := range size + 101 {
		if l != size {
			ls = append(ls, l)
		}
	}
	return ls
}

// TestWrongLengths checks that every wrong length of a seed, an
// encapsulation key, a ciphertext and derandomized encapsulation's
// randomness is an error, as in every reference.
func TestWrongLengths(t *testing.T) {
	for _, ps := range paramSets {
		t.Run(ps.name, func(t *testing.T) {
			seed := make([]byte, mlkem.SeedSize)
			newRand("lengths/" + ps.name).Read(seed)
			dk, ek := ps.tunelab.mustKey(t, seed)
			for _, im := range append([]impl{ps.tunelab}, ps.refs...) {
				for _, l := range lengthsBut(mlkem.SeedSize) {
					if _, _, err := im.newKey(make([]byte, l)); err == nil {
						t.Errorf("%s: a %d-byte seed is accepted", im.name, l)
					}
				}
				for _, l := range lengthsBut(ps.ekSize) {
					if _, err := im.parse(bytes.Repeat([]byte{1}, l)); err == nil {
						t.Errorf("%s: a %d-byte encapsulation key is accepted", im.name, l)
					}
				}
			}
			for _, l := range lengthsBut(ps.ctSize) {
				if _, err := dk.Decapsulate(make([]byte, l)); err == nil {
					t.Errorf("a %d-byte ciphertext is accepted", l)
				}
			}
			for _, l := range lengthsBut(32)[:64] {
				if _, _, err := ps.tunelab.encapsulate(ek, make([]byte, l)); err == nil {
					t.Errorf("derandomized encapsulation accepts %d bytes of randomness", l)
				}
			}
		})
	}
}

// setCoefficient sets coefficient i (of the whole vector t̂) of an encoded
// encapsulation key to v.
func setCoefficient(ek []byte, i int, v uint16) {
	b := ek[3*(i/2):]
	if i%2 == 0 {
		b[0], b[1] = byte(v), b[1]&0xf0|byte(v>>8)
	} else {
		b[1], b[2] = b[1]&0x0f|byte(v<<4), byte(v>>4)
	}
}

// TestModulusCheck sets coefficients of t̂ in an encapsulation key to
// values ≥ q, which every implementation must refuse (FIPS 203, 7.2),
// and to q−1, which they must accept.
func TestModulusCheck(t *testing.T) {
	for _, ps := range paramSets {
		t.Run(ps.name, func(t *testing.T) {
			seed := make([]byte, mlkem.SeedSize)
			newRand("modulus/" + ps.name).Read(seed)
			_, ek := ps.tunelab.mustKey(t, seed)
			k := (ps.ekSize - 32) / 384
			for p := range k {
				for _, j := range []int{0, 1, 2, 127, 254, 255} {
					for _, v := range []uint16{mlkem.Q, mlkem.Q + 1, 4095, mlkem.Q - 1} {
						b := ek.Bytes()
						setCoefficient(b, 256*p+j, v)
						checkModulus(t, ps, b, v < mlkem.Q, fmt.Sprintf("coefficient %d of polynomial %d = %d", j, p, v))
					}
				}
			}
		})
	}
}

// checkModulus checks that every implementation accepts the encapsulation
// key b exactly if valid, and that this one returns it unchanged.
func checkModulus(t *testing.T, ps paramSet, b []byte, valid bool, what string) {
	t.Helper()
	for _, im := range append([]impl{ps.tunelab}, ps.refs...) {
		ek, err := im.parse(b)
		switch {
		case valid && err != nil:
			t.Errorf("%s: %s: refused: %v", im.name, what, err)
		case !valid && err == nil:
			t.Errorf("%s: %s: accepted", im.name, what)
		case valid && !bytes.Equal(ek.Bytes(), b):
			t.Errorf("%s: %s: Bytes() is not the parsed key", im.name, what)
		}
	}
}

// TestGenerateKey checks random key pairs: the seed round-trips through
// Bytes, and the references derive the same keys from it and decapsulate
// this package's ciphertexts.
func TestGenerateKey(t *testing.T) {
	gens := map[string]func() ([]byte, decapsulator, encapsulator, error){
		"512":  func() ([]byte, decapsulator, encapsulator, error) { return wrap(mlkem.GenerateKey512()) },
		"768":  func() ([]byte, decapsulator, encapsulator, error) { return wrap(mlkem.GenerateKey768()) },
		"1024": func() ([]byte, decapsulator, encapsulator, error) { return wrap(mlkem.GenerateKey1024()) },
	}
	for _, ps := range paramSets {
		seed, dk, ek, err := gens[ps.name]()
		if err != nil {
			t.Fatalf("ML-KEM-%s: %v", ps.name, err)
		}
		rdk, rek := ps.refs[0].mustKey(t, seed)
		if d := firstDiff(ek.Bytes(), rek.Bytes()); d != "" {
			t.Errorf("ML-KEM-%s: %s encapsulation key of the seed of a generated key: %s", ps.name, ps.refs[0].name, d)
		}
		key, c := ek.Encapsulate()
		if err := decapsulatesTo(dk, c, key, "ML-KEM-"+ps.name); err != nil {
			t.Error(err)
		}
		if err := decapsulatesTo(rdk, c, key, "ML-KEM-"+ps.name+" "+ps.refs[0].name); err != nil {
			t.Error(err)
		}
	}
}

// wrap returns the seed, the key and the encapsulation key of a generated
// key.
func wrap[DK interface {
	dkAPI[EK]
	Bytes() []byte
}, EK encapsulator](dk DK, err error) ([]byte, decapsulator, encapsulator, error) {
	if err != nil {
		return nil, nil, nil, err
	}
	return dk.Bytes(), dk, dk.EncapsulationKey(), nil
}

// TestBytesAreCopies checks that changing what Bytes returns changes no
// key.
func TestBytesAreCopies(t *testing.T) {
	seed := make([]byte, mlkem.SeedSize)
	dk, err := mlkem.NewDecapsulationKey768(seed)
	if err != nil {
		t.Fatal(err)
	}
	ek := dk.EncapsulationKey()
	want := ek.Bytes()
	dk.Bytes()[0] ^= 1
	ek.Bytes()[0] ^= 1
	dk.EncapsulationKey().Bytes()[1] ^= 1
	if !bytes.Equal(dk.Bytes(), seed) || !bytes.Equal(ek.Bytes(), want) || !bytes.Equal(dk.EncapsulationKey().Bytes(), want) {
		t.Error("a key changed with the bytes Bytes returned")
	}
}

// TestConcurrent uses one key pair of each set from several goroutines at
// once (the keys are immutable and the operations' scratch is per call;
// run with -race).
//
// Half the goroutines encapsulate to one freshly parsed copy of the
// encapsulation key, so that its first use (Â into scratch memory beside
// H(ek)) races with later ones (Â into the key's own memory).
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for _, ps := range paramSets {
		dk, ek := ps.tunelab.mustKey(t, make([]byte, mlkem.SeedSize))
		parsed, err := ps.tunelab.parse(ek.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		for g := range 4 {
			to := ek
			if g%2 == 1 {
				to = parsed
			}
			wg.Go(func() {
				for range 5 {
					key, c := to.Encapsulate()
					if err := decapsulatesTo(dk, c, key, fmt.Sprintf("ML-KEM-%s, goroutine %d", ps.name, g)); err != nil {
						t.Error(err)
						return
					}
				}
			})
		}
	}
	wg.Wait()
}

// maxAllocs are the allocations each operation may make through the
// test adapters: the key (one allocation with its polynomials and
// encoding); the returned shared keys and ciphertexts, which escape
// through the adapters' interfaces (TestZeroAllocs checks that the
// concrete methods allocate nothing).
var maxAllocs = map[string]float64{"NewDecapsulationKey": 1, "NewEncapsulationKey": 1, "Encapsulate": 1, "Decapsulate": 1}

// TestZeroAllocs checks that encapsulation and decapsulation with a
// reused key allocate nothing when the caller keeps no reference to the
// results (they are then on its stack), and that key generation and
// parsing allocate the key only.
func TestZeroAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	seed := make([]byte, mlkem.SeedSize)
	check := func(what string, want float64, f func()) {
		t.Helper()
		if got := testing.AllocsPerRun(20, f); got > want {
			t.Errorf("%s: %v allocations, want %v", what, got, want)
		}
	}
	dk512, _ := mlkem.NewDecapsulationKey512(seed)
	ek512 := dk512.EncapsulationKey()
	_, c512 := ek512.Encapsulate()
	check("ML-KEM-512 NewDecapsulationKey512", 1, func() { mlkem.NewDecapsulationKey512(seed) })
	b512 := ek512.Bytes()
	check("ML-KEM-512 NewEncapsulationKey512", 1, func() { mlkem.NewEncapsulationKey512(b512) })
	check("ML-KEM-512 Encapsulate", 0, func() { ek512.Encapsulate() })
	check("ML-KEM-512 Decapsulate", 0, func() { dk512.Decapsulate(c512) })
	dk768, _ := mlkem.NewDecapsulationKey768(seed)
	ek768 := dk768.EncapsulationKey()
	b768 := ek768.Bytes()
	_, c768 := ek768.Encapsulate()
	check("ML-KEM-768 NewDecapsulationKey768", 1, func() { mlkem.NewDecapsulationKey768(seed) })
	check("ML-KEM-768 NewEncapsulationKey768", 1, func() { mlkem.NewEncapsulationKey768(b768) })
	check("ML-KEM-768 Encapsulate", 0, func() { ek768.Encapsulate() })
	check("ML-KEM-768 Decapsulate", 0, func() { dk768.Decapsulate(c768) })
	dk1024, _ := mlkem.NewDecapsulationKey1024(seed)
	ek1024 := dk1024.EncapsulationKey()
	_, c1024 := ek1024.Encapsulate()
	check("ML-KEM-1024 NewDecapsulationKey1024", 1, func() { mlkem.NewDecapsulationKey1024(seed) })
	check("ML-KEM-1024 Encapsulate", 0, func() { ek1024.Encapsulate() })
	check("ML-KEM-1024 Decapsulate", 0, func() { dk1024.Decapsulate(c1024) })
}

// TestAllocs bounds the allocations of every operation.
func TestAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	for _, ps := range paramSets {
		seed := make([]byte, mlkem.SeedSize)
		dk, ek := ps.tunelab.mustKey(t, seed)
		b := ek.Bytes()
		_, c := ek.Encapsulate()
		ops := map[string]func(){
			"NewDecapsulationKey": func() { ps.tunelab.mustKey(t, seed) },
			"NewEncapsulationKey": func() { ps.tunelab.parse(b) },
			"Encapsulate":         func() { ek.Encapsulate() },
			"Decapsulate":         func() { dk.Decapsulate(c) },
		}
		for op, f := range ops {
			extra := 0.0
			if op == "NewDecapsulationKey" {
				extra = 1 // the adapter's EncapsulationKey
			}
			got := testing.AllocsPerRun(20, f)
			t.Logf("ML-KEM-%s %s: %v allocations", ps.name, op, got)
			if got > maxAllocs[op]+extra {
				t.Errorf("ML-KEM-%s %s: %v allocations, want at most %v", ps.name, op, got, maxAllocs[op]+extra)
			}
		}
	}
}

// childEnv marks the subprocesses of TestUnderMasks.
const childEnv = "TUNELAB_MLKEM_KEM_CHILD"

// TestUnderMasks reruns the accumulated known answers (-short) in
// subprocesses on the generic kernels (every CPU feature masked), with
// AVX-512 masked, and on the production tables alone (as a program that
// never calls RegisterVariants), so that the whole operations are checked
// on every dispatch tier this host can show.
func TestUnderMasks(t *testing.T) {
	if os.Getenv(childEnv) != "" {
		t.Skip("in child")
	}
	for _, env := range []string{"TUNELAB_CPU=all=off", "TUNELAB_CPU=avx512f=off", nttfieldtest.ProductionEnv + "=1"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestAccumulated$", "-test.short", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), childEnv+"=1", env)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestAccumulated") {
			t.Errorf("%s: %v\n%s", env, err, out)
		}
	}
}
