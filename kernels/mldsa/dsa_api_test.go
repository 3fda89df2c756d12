package mldsa

import (
	"bytes"
	"crypto"
	"crypto/rand"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// Compile-time checks: the private keys are crypto.Signers and *Options
// is a crypto.SignerOpts.
var (
	_ crypto.Signer     = (*PrivateKey44)(nil)
	_ crypto.Signer     = (*PrivateKey65)(nil)
	_ crypto.Signer     = (*PrivateKey87)(nil)
	_ crypto.SignerOpts = (*Options)(nil)
)

// TestSignHedged checks crypto.Signer's Sign: a signature with rnd from
// crypto/rand (or from a nil reader) verifies here and in circl and
// differs from the next one; rnd = 32 zero bytes (a reader of exactly 32
// bytes) gives the deterministic signature, with the context of an
// *Options; a pre-hash, a short reader
// and a long context are errors.
func TestSignHedged(t *testing.T) {
	msg := []byte("hedged ML-DSA")
	for _, set := range testSets {
		seed := newTestRand("hedged " + set.name).seed()
		k, ref := mustKey(t, set, seed[:]), set.circl(seed)
		a, errA := k.signer.Sign(rand.Reader, msg, crypto.Hash(0))
		b, errB := k.signer.Sign(nil, msg, nil)
		switch {
		case errA != nil || errB != nil:
			t.Fatalf("%s: Sign: %v, %v", set.name, errA, errB)
		case !k.verify(msg, nil, a) || !k.verify(msg, nil, b) || !ref.verify(msg, nil, a):
			t.Fatalf("%s: a hedged signature does not verify", set.name)
		case bytes.Equal(a, b):
			t.Fatalf("%s: two hedged signatures are equal", set.name)
		}
		for _, ctx := range []string{"", "a context"} {
			got, err := k.signer.Sign(bytes.NewReader(make([]byte, rndSize)), msg, &Options{Context: ctx})
			want, _ := k.signDet(msg, []byte(ctx))
			if err != nil || !bytes.Equal(got, want) {
				t.Fatalf("%s: Sign with rnd = 0^32 and context %q differs from SignDeterministic (%v)", set.name, ctx, err)
			}
		}
		checkSignErrors(t, set, k)
	}
}

// checkSignErrors checks the errors of Sign and SignDeterministic.
func checkSignErrors(t *testing.T, set testSet, k *testKey) {
	t.Helper()
	msg := []byte("m")
	long := strings.Repeat("c", maxCtx+1)
	if _, err := k.signer.Sign(rand.Reader, msg, crypto.SHA256); !errors.Is(err, errHash) {
		t.Errorf("%s: Sign with SHA-256 as pre-hash: %v, want %v", set.name, err, errHash)
	}
	if _, err := k.signer.Sign(strings.NewReader("short"), msg, nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("%s: Sign with a 5-byte reader: %v, want %v", set.name, err, io.ErrUnexpectedEOF)
	}
	if _, err := k.signer.Sign(rand.Reader, msg, &Options{Context: long}); !errors.Is(err, errContext) {
		t.Errorf("%s: Sign with a 256-byte context: %v, want %v", set.name, err, errContext)
	}
	if _, err := k.signDet(msg, []byte(long)); !errors.Is(err, errContext) {
		t.Errorf("%s: SignDeterministic with a 256-byte context: %v, want %v", set.name, err, errContext)
	}
	if _, err := k.signer.Sign(bytes.NewReader(make([]byte, rndSize)), msg, (*Options)(nil)); err != nil {
		t.Errorf("%s: Sign with a nil *Options: %v", set.name, err)
	}
}

// TestContextLength signs with contexts of 0 and 255 bytes and checks
// that Verify refuses a 256-byte context.
func TestContextLength(t *testing.T) {
	msg := []byte("context")
	for _, set := range testSets {
		k := mustKey(t, set, newTestRand("context "+set.name).bytes(SeedSize))
		for _, size := range []int{0, maxCtx} {
			ctx := bytes.Repeat([]byte{0xc7}, size)
			sig, err := k.signDet(msg, ctx)
			if err != nil || !k.verify(msg, ctx, sig) {
				t.Fatalf("%s: %d-byte context: %v, or the signature does not verify", set.name, size, err)
			}
		}
		if k.verify(msg, make([]byte, maxCtx+1), make([]byte, set.p.sigSize)) {
			t.Errorf("%s: Verify accepts a 256-byte context", set.name)
		}
	}
}

// TestSeedLength checks that every seed length but 32 is an error.
func TestSeedLength(t *testing.T) {
	for _, set := range testSets {
		for size := range 2*SeedSize + 1 {
			_, err := set.newKey(make([]byte, size))
			if (err == nil) != (size == SeedSize) || (err != nil && !errors.Is(err, errSeedSize)) {
				t.Errorf("%s: %d-byte seed: error %v", set.name, size, err)
			}
		}
	}
}

// TestPublicKeyAccessors checks Public, PublicKey and the byte accessors
// of one parameter set's concrete types: the encodings are copies.
func TestPublicKeyAccessors(t *testing.T) {
	sk, err := GenerateKey65()
	if err != nil {
		t.Fatal(err)
	}
	if pub, ok := sk.Public().(*PublicKey65); !ok || pub != sk.PublicKey() {
		t.Fatalf("Public() = %T %p, want PublicKey() %p", sk.Public(), sk.Public(), sk.PublicKey())
	}
	b, s, pk := sk.Bytes(), sk.Seed(), sk.PublicKey().Bytes()
	b[0]++
	s[0]++
	pk[0]++
	if bytes.Equal(b, sk.Bytes()) || bytes.Equal(s, sk.Seed()) || bytes.Equal(pk, sk.PublicKey().Bytes()) {
		t.Fatal("an accessor returns the key's own bytes")
	}
	if Verify65(nil, nil, nil, make([]byte, SignatureSize65)) || Verify65(&PublicKey65{}, nil, nil, make([]byte, SignatureSize65)) {
		t.Fatal("Verify65 accepts a nil or zero public key")
	}
	if _, err := new(PrivateKey65).SignDeterministic(nil, nil); !errors.Is(err, errZeroKey) {
		t.Fatalf("signing with a zero PrivateKey65: %v, want %v", err, errZeroKey)
	}
	other, err := GenerateKey65()
	if err != nil || bytes.Equal(other.Seed(), sk.Seed()) {
		t.Fatalf("GenerateKey65 returned the same seed twice (%v)", err)
	}
}

// TestMalformedPublicKey checks that every wrong length of a public key
// is an error.
func TestMalformedPublicKey(t *testing.T) {
	for _, set := range testSets {
		for size := range set.p.pkSize + 17 {
			if _, err := set.newPub(make([]byte, size)); (err == nil) != (size == set.p.pkSize) {
				t.Errorf("%s: %d-byte public key: error %v", set.name, size, err)
			}
		}
	}
}

// TestMalformedSignature checks that Verify rejects, without panicking,
// every wrong length of a valid signature (truncated or extended),
// malformed hints, z coefficients at and beyond the bound, and flipped
// bits.
func TestMalformedSignature(t *testing.T) {
	msg := []byte("malformed")
	for _, set := range testSets {
		k := mustKey(t, set, newTestRand("malformed "+set.name).bytes(SeedSize))
		sig, err := k.signDet(msg, nil)
		if err != nil || len(sig) != set.p.sigSize {
			t.Fatalf("%s: signing the message to malform: %d bytes, %v", set.name, len(sig), err)
		}
		p := set.p
		for size := range p.sigSize + 17 {
			bad := append(append([]byte(nil), sig...), make([]byte, 17)...)[:size]
			if size != p.sigSize && k.verify(msg, nil, bad) {
				t.Errorf("%s: Verify accepts a %d-byte signature", set.name, size)
			}
		}
		for name, edit := range malformations(p, sig) {
			bad := append([]byte(nil), sig...)
			edit(bad)
			if k.verify(msg, nil, bad) {
				t.Errorf("%s: Verify accepts a signature with %s", set.name, name)
			}
		}
		if !k.verify(msg, nil, sig) {
			t.Fatalf("%s: the unmodified signature does not verify", set.name)
		}
	}
}

// malformations returns edits that make the signature sig invalid.
func malformations(p *params, sig []byte) map[string]func([]byte) {
	h := p.sigHints()
	ends, _ := p.hintRows(sig[h:])
	total := ends[p.k-1]
	m := map[string]func([]byte){
		"ω+1 hints in the last row":    func(b []byte) { b[h+p.omega+p.k-1] = byte(p.omega + 1) },
		"a decreasing row end":         func(b []byte) { b[h+p.omega] = byte(total + 1) },
		"nonzero hint padding":         func(b []byte) { b[h+p.omega-1] = 0xff },
		"a hint added to the last row": func(b []byte) { b[h+total] = 255; b[h+p.omega+p.k-1]++ },
		"a flipped bit in c̃":          func(b []byte) { b[0] ^= 1 },
		"a flipped bit in z":           func(b []byte) { b[p.cTilde+100] ^= 4 },
		"all zero bytes":               func(b []byte) { clear(b) },
		"z coefficient 0 at γ1-β":      func(b []byte) { setZ0(p, b, p.gamma1()-p.beta()) },
		"z coefficient 0 at -(γ1-β)":   func(b []byte) { setZ0(p, b, -(p.gamma1() - p.beta())) },
		"z coefficient 0 at γ1":        func(b []byte) { setZ0(p, b, p.gamma1()) },
		"z coefficient 0 at -γ1+1":     func(b []byte) { setZ0(p, b, 1-p.gamma1()) },
		"z coefficient 0 at γ1-β-1":    func(b []byte) { setZ0(p, b, p.gamma1()-p.beta()-1) },
		"every hint byte 0xff":         func(b []byte) { copy(b[h:], bytes.Repeat([]byte{0xff}, p.omega+p.k)) },
	}
	if ends[p.k-1]-ends[p.k-2] >= 2 {
		m["the last row's first hint repeated"] = func(b []byte) { b[h+total-1] = b[h+ends[p.k-2]] }
		m["two hints of the last row swapped"] = func(b []byte) { b[h+total-1], b[h+total-2] = b[h+total-2], b[h+total-1] }
	}
	return m
}

// setZ0 sets the first z coefficient of the signature b to z, keeping the
// other bits of its bytes.
func setZ0(p *params, b []byte, z int32) {
	v := uint32(p.gamma1() - z)
	bits := p.zBits()
	w := b[p.cTilde:]
	for i := range bits {
		byteI, bit := i/8, i%8
		w[byteI] = w[byteI]&^(1<<bit) | byte(v>>i&1)<<bit
	}
}

// TestZBound checks the verifier's z bound directly: γ1-β-1 passes and
// γ1-β fails, in either sign.
func TestZBound(t *testing.T) {
	for _, p := range []*params{&params44, &params65} {
		sig := make([]byte, p.sigSize)
		for _, c := range []struct {
			z  int32
			ok bool
		}{{p.gamma1() - p.beta() - 1, true}, {-(p.gamma1() - p.beta() - 1), true}, {p.gamma1() - p.beta(), false}, {p.beta() - p.gamma1(), false}} {
			for j := range p.l {
				p.packZ(sig[p.cTilde+j*p.zBytes():], new(poly))
			}
			setZ0(p, sig, c.z)
			var v verifier
			if got := v.unpackZ(p, sig); got != c.ok {
				t.Errorf("%s: z coefficient %d: norm check %v, want %v", p.name, c.z, got, c.ok)
			}
		}
	}
}

// TestSignAllocs checks that signing and verifying with a reused key
// allocate nothing when the caller keeps no reference to the signature
// (it is then on the caller's stack; the loop's scratch stays on the
// stack too), and that key generation and parsing allocate the key only,
// for every parameter set.
func TestSignAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("sync.Pool drops items at random under the race detector")
	}
	seed, msg := make([]byte, SeedSize), make([]byte, 1024)
	check := func(what string, want float64, f func()) {
		t.Helper()
		if got := testing.AllocsPerRun(5, f); got > want {
			t.Errorf("%s allocates %v times, want %v", what, got, want)
		}
	}
	sk44, _ := NewPrivateKey44(seed)
	sig44, _ := sk44.SignDeterministic(msg, nil)
	pk44 := sk44.PublicKey().Bytes()
	check("NewPrivateKey44", 1, func() { NewPrivateKey44(seed) })
	check("NewPublicKey44", 1, func() { NewPublicKey44(pk44) })
	check("ML-DSA-44 SignDeterministic", 0, func() { sk44.SignDeterministic(msg, nil) })
	check("ML-DSA-44 Sign", 0, func() { sk44.Sign(nil, msg, nil) })
	check("ML-DSA-44 Sign (crypto/rand.Reader)", 0, func() { sk44.Sign(rand.Reader, msg, nil) })
	check("ML-DSA-44 Sign (another reader)", 1, func() { sk44.Sign(zeroReader{}, msg, nil) })
	check("Verify44", 0, func() { Verify44(sk44.PublicKey(), msg, nil, sig44) })
	sk65, _ := NewPrivateKey65(seed)
	sig65, _ := sk65.SignDeterministic(msg, nil)
	pk65 := sk65.PublicKey().Bytes()
	check("NewPrivateKey65", 1, func() { NewPrivateKey65(seed) })
	check("NewPublicKey65", 1, func() { NewPublicKey65(pk65) })
	check("ML-DSA-65 SignDeterministic", 0, func() { sk65.SignDeterministic(msg, nil) })
	check("ML-DSA-65 Sign", 0, func() { sk65.Sign(nil, msg, nil) })
	check("Verify65", 0, func() { Verify65(sk65.PublicKey(), msg, nil, sig65) })
	sk87, _ := NewPrivateKey87(seed)
	sig87, _ := sk87.SignDeterministic(msg, nil)
	check("NewPrivateKey87", 1, func() { NewPrivateKey87(seed) })
	check("ML-DSA-87 SignDeterministic", 0, func() { sk87.SignDeterministic(msg, nil) })
	check("Verify87", 0, func() { Verify87(sk87.PublicKey(), msg, nil, sig87) })
}

// zeroReader reads zeros: another reader than crypto/rand's, whose buffer
// escapes into its Read.
type zeroReader struct{}

func (zeroReader) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// dsaChildEnv marks the subprocesses of TestDSAUnderMasks.
const dsaChildEnv = "TUNELAB_MLDSA_DSA_CHILD"

// TestDSAUnderMasks reruns the differential and known-answer tests (in
// -short sizes) in subprocesses with CPU features masked, with the
// production tables only and with the transforms forced to the generic
// code next to the assembly products, so that the whole operations run on
// every dispatch path of this host (full mode only; the emulated matrix
// covers the CPU tiers under -short).
func TestDSAUnderMasks(t *testing.T) {
	if testing.Short() || os.Getenv(dsaChildEnv) != "" {
		t.Skip("full mode only, not in a child")
	}
	for _, env := range [][]string{
		{"TUNELAB_CPU=all=off"},
		{"TUNELAB_CPU=avx512f=off"},
		{nttfieldtest.ProductionEnv + "=1"},
		{nttfieldtest.ProductionEnv + "=1", "TUNELAB_CPU=avx512f=off"},
		{"TUNELAB_DISPATCH=mldsa.ntt=generic,mldsa.invntt=generic"},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^(TestSignaturesMatchCIRCL|TestKAT)$", "-test.short", "-test.count=1", "-test.v")
		cmd.Env = append(append(os.Environ(), dsaChildEnv+"=1"), env...)
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestSignaturesMatchCIRCL") || !strings.Contains(string(out), "--- PASS: TestKAT") {
			t.Errorf("whole operations under %v: %v\n%s", env, err, out)
		}
	}
}

// TestFirstUseConcurrent signs and verifies with fresh key pairs from
// several goroutines at once, so that their first signature (which
// decodes NTT(s1), NTT(s2), NTT(t0) from the encoding and expands Â) and
// first verification (NTT(t1·2^d)) race (go test -race): every
// deterministic signature must equal circl's and verify.
func TestFirstUseConcurrent(t *testing.T) {
	msg := []byte("first use")
	for _, set := range testSets {
		seed := newTestRand("first use " + set.name).seed()
		want, err := set.circl(seed).signDet(msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		k := mustKey(t, set, seed[:])
		errs := make(chan error, 4)
		for range 4 {
			go func() {
				sig, err := k.signDet(msg, nil)
				switch {
				case err != nil:
					errs <- err
				case !bytes.Equal(sig, want):
					errs <- errors.New(set.name + ": a first signature differs from circl's")
				case !k.verify(msg, nil, sig):
					errs <- errors.New(set.name + ": a first verification rejects the signature")
				default:
					errs <- nil
				}
			}()
		}
		for range 4 {
			if err := <-errs; err != nil {
				t.Error(err)
			}
		}
	}
}

// TestParsedFirstUseConcurrent verifies with freshly parsed public keys
// from several goroutines at once, so that the first uses (Â into
// scratch memory beside tr) race with the later ones (Â into the key's
// own memory, tr hashed alone) (go test -race): every one must accept
// the signature and reject a corrupted one.
func TestParsedFirstUseConcurrent(t *testing.T) {
	msg := []byte("parsed first use")
	for _, set := range testSets {
		seed := newTestRand("parsed first use " + set.name).seed()
		k := mustKey(t, set, seed[:])
		sig, err := k.signDet(msg, nil)
		if err != nil {
			t.Fatal(err)
		}
		bad := bytes.Clone(sig)
		bad[len(bad)/2] ^= 1
		for range 3 {
			verify, err := set.newPub(k.pk)
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			for g := range 4 {
				wg.Go(func() {
					if !verify(msg, nil, sig) || verify(msg, nil, bad) {
						t.Errorf("%s: goroutine %d: a parsed key's verification is wrong", set.name, g)
					}
				})
			}
			wg.Wait()
		}
	}
}
