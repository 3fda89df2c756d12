package mldsa

import (
	"crypto/sha256"
	"crypto/sha3"
	"encoding/hex"
	"testing"
)

// The known-answer test hashes a deterministic chain of outputs: for each
// step, a seed, a message (0 to 1 KiB) and a context (0 to 255 bytes) come
// from one SHAKE128 stream of the label "tunelab ML-DSA KAT <name>", and
// pk || sk || sig (the deterministic signature) goes into a second
// SHAKE128; the test compares its first 32 bytes after katSteps steps (and
// after katShortSteps under -short) with the values below.
//
// The values were computed once with circl v1.6.5 (sign/mldsa/mldsaXX:
// NewKeyFromSeed, SignTo with randomized = false), which passes the NIST
// ACVP vectors, by running
//
//	go test -run 'TestKATCIRCL' -v ./kernels/mldsa
//
// which prints the chain's hashes computed with circl; TestKATCIRCL checks
// them against the table in full mode, so the table cannot drift from circl.
const (
	katSteps      = 100
	katShortSteps = 3
)

var katWant = map[string][2]string{ // name -> {after katShortSteps, after katSteps}
	"ML-DSA-44": {"0c38a74c785bc19669bb673a7da6ef6703f9c5e999021528b3a1c4d0cd42d7f1", "98d7ca754e2cc93122974ffa474a677e8af8a9e523b9caad320752de25038607"},
	"ML-DSA-65": {"39aca7b2c008d4bf8df040597884becd141b948485d8c09814635e47f1193f48", "58927c0895cb1ab318be5bbeed270720c089fd307f49a483d95aee00a4713aae"},
	"ML-DSA-87": {"7cf3d2e39429621cda0a0842698db43488fc8d71bc44525157d525fa8cd2a6b8", "22b7d9a827117a5dc704aa2fd43874a75ffe128600ef74bbe6f335446c435537"},
}

// katStep returns the encoded public key, private key and deterministic
// signature of one step's inputs.
type katStep func(seed *[SeedSize]byte, msg, ctx []byte) (pk, sk, sig []byte)

// katChain runs steps steps of the chain with step and returns the hash.
func katChain(t *testing.T, name string, steps int, step katStep) string {
	in := sha3.NewSHAKE128()
	in.Write([]byte("tunelab ML-DSA KAT " + name))
	out := sha3.NewSHAKE128()
	for range steps {
		var seed [SeedSize]byte
		var lens [3]byte
		in.Read(seed[:])
		in.Read(lens[:])
		msg := make([]byte, (int(lens[0])|int(lens[1])<<8)%1025)
		ctx := make([]byte, lens[2])
		in.Read(msg)
		in.Read(ctx)
		pk, sk, sig := step(&seed, msg, ctx)
		out.Write(pk)
		out.Write(sk)
		out.Write(sig)
	}
	sum := make([]byte, 32)
	out.Read(sum)
	return hex.EncodeToString(sum)
}

// ourStep is katStep on this package.
func ourStep(t *testing.T, set testSet) katStep {
	return func(seed *[SeedSize]byte, msg, ctx []byte) (pk, sk, sig []byte) {
		k := mustKey(t, set, seed[:])
		sig, err := k.signDet(msg, ctx)
		if err != nil {
			t.Fatalf("%s: SignDeterministic: %v", set.name, err)
		}
		return k.pk, k.sk, sig
	}
}

// circlStep is katStep on circl.
func circlStep(t *testing.T, set testSet) katStep {
	return func(seed *[SeedSize]byte, msg, ctx []byte) (pk, sk, sig []byte) {
		k := set.circl(seed)
		sig, err := k.signDet(msg, ctx)
		if err != nil {
			t.Fatalf("%s: circl SignTo: %v", set.name, err)
		}
		return k.pk, k.sk, sig
	}
}

// TestKAT checks the chain of this package against the recorded hashes.
func TestKAT(t *testing.T) {
	for _, set := range testSets {
		t.Run(set.name, func(t *testing.T) {
			i, steps := 1, katSteps
			if testing.Short() {
				i, steps = 0, katShortSteps
			}
			if got, want := katChain(t, set.name, steps, ourStep(t, set)), katWant[set.name][i]; got != want {
				t.Errorf("%s: hash of %d steps = %s, want %s", set.name, steps, got, want)
			}
		})
	}
}

// TestKATCIRCL recomputes the recorded hashes with circl (full mode only).
func TestKATCIRCL(t *testing.T) {
	if testing.Short() {
		t.Skip("recomputes the known answers with circl")
	}
	for _, set := range testSets {
		for i, steps := range []int{katShortSteps, katSteps} {
			got := katChain(t, set.name, steps, circlStep(t, set))
			t.Logf("%s, %d steps: %s", set.name, steps, got)
			if want := katWant[set.name][i]; got != want {
				t.Errorf("%s: circl's hash of %d steps = %s, recorded %s", set.name, steps, got, want)
			}
		}
	}
}

// acvpKeyGen are NIST ACVP ML-DSA keyGen vectors (ACVP-Server
// gen-val/json-files/ML-DSA-keyGen-FIPS204, vsId 42, the first two test
// cases of each parameter set): the seed ξ and the SHA-256 of the expected
// pk and sk.
var acvpKeyGen = []struct{ set, seed, pk, sk string }{
	{"ML-DSA-44", "93EF2E6EF1FB08999D142ABE0295482370D3F43BDB254A78E2B0D5168ECA065F",
		"6995b20ecd5cde41719035028a712ccf35b1adf53b913030423d9d6fa188d673", "16a35d4b59f932aeada987dc689b075add0df57b4815bb103be7443ee3c1c561"},
	{"ML-DSA-44", "D6A5D2325B94CA1B993A0151E24AB95B396F415831DC14A08404820AE58A2AD1",
		"51bced8954e17da402e93fc5275f723aed1b9101bdf4fac5afc2b5c227d9e674", "7b1145d3514f394295a88cc96f90a3125602b51b18cd118478194ac1e97d34f0"},
	{"ML-DSA-65", "70CEFB9AED5B68E018B079DA8284B9D5CAD5499ED9C265FF73588005D85C225C",
		"646b26b8d09dbc9e865b6a006c693a3127b065e62fab5fbe8b159c416462feb6", "3894dc56a4553781d68ff0d1b6fcf1b4876085ea602fb6f8738def50ed7d4c75"},
	{"ML-DSA-65", "4B4B71C5A1BC1074F2167A1D68729CDB9E16ABA3651FF02A0A0F4C883CAAC827",
		"5fef74046438638b54fb828d4ae59fea8eb26de94905664c2c7d76da82672057", "c63df42f503d13f9b808bf5cef71239f9f9e4f68437022d84a5ed757bd918810"},
	{"ML-DSA-87", "38359FBCD79582CFFE609E137EE2EFE8A8DBCBAD18BA92BB433AB4F09B49299D",
		"ea374a09356e5f89be784f28f4ef938e8976cb5c4db00fbacb257663491748d4", "a0cc3d4f703057c09b9261336ba45563d2c781d173f7fc634910698e95eee375"},
	{"ML-DSA-87", "29B4987C62218C19C77D695EB904AFFAA1BFEF6A52F138604CDAB1534E66DC10",
		"40d79acd066c7453d66619211188f3725739cf64df6b8a7e2b948cf16b33a42b", "326a51b6884d0432e5bb3dc601eced7db51e4278e6fcfba92d42f27ae4b73d11"},
}

// TestACVPKeyGen derives the keys of the NIST ACVP keyGen vectors.
func TestACVPKeyGen(t *testing.T) {
	for _, v := range acvpKeyGen {
		seed, err := hex.DecodeString(v.seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, set := range testSets {
			if set.name != v.set {
				continue
			}
			k := mustKey(t, set, seed)
			pk, sk := sha256.Sum256(k.pk), sha256.Sum256(k.sk)
			if hex.EncodeToString(pk[:]) != v.pk || hex.EncodeToString(sk[:]) != v.sk {
				t.Errorf("%s seed %s: SHA-256(pk) = %x, SHA-256(sk) = %x, want %s, %s", v.set, v.seed, pk, sk, v.pk, v.sk)
			}
		}
	}
}
