package operations

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/mlkem/mlkemtest"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/compose"
	"github.com/tunelab/tunelab/lab/opinputs"
)

// msgSize is the size of ML-KEM's encapsulation randomness m.
const msgSize = 32

// A kemSet is one ML-KEM parameter set's public API: DK its
// decapsulation key, EK its encapsulation key.
type kemSet[DK kemDecapsulator[EK], EK interface{ Bytes() []byte }] struct {
	set    string // "768"
	newDK  func(seed []byte) (DK, error)
	newEK  func(b []byte) (EK, error)
	encaps func(ek EK, m []byte) (sharedKey, ciphertext []byte, err error)
}

// A kemDecapsulator is a decapsulation key of encapsulation keys EK.
type kemDecapsulator[EK any] interface {
	Decapsulate(ciphertext []byte) ([]byte, error)
	EncapsulationKey() EK
}

// kemOperations returns the nine ML-KEM operations.
func kemOperations() []compose.Op {
	var ops []compose.Op
	ops = append(ops, kemSet[*mlkem.DecapsulationKey512, *mlkem.EncapsulationKey512]{"512",
		mlkem.NewDecapsulationKey512, mlkem.NewEncapsulationKey512, mlkemtest.Encapsulate512}.ops()...)
	ops = append(ops, kemSet[*mlkem.DecapsulationKey768, *mlkem.EncapsulationKey768]{"768",
		mlkem.NewDecapsulationKey768, mlkem.NewEncapsulationKey768, mlkemtest.Encapsulate768}.ops()...)
	ops = append(ops, kemSet[*mlkem.DecapsulationKey1024, *mlkem.EncapsulationKey1024]{"1024",
		mlkem.NewDecapsulationKey1024, mlkem.NewEncapsulationKey1024, mlkemtest.Encapsulate1024}.ops()...)
	return ops
}

// ops returns the set's key generation, encapsulation and decapsulation.
func (p kemSet[DK, EK]) ops() []compose.Op {
	return []compose.Op{p.keygen(), p.encapsOp(), p.decapsOp()}
}

// kernel describes the operation kernel op ("keygen") of the set.
func (p kemSet[DK, EK]) kernel(op, bench, doc string) variant.Kernel {
	return variant.Kernel{Name: "mlkem" + p.set + "." + op, Family: "mlkem", Bench: "MLKEM" + p.set + bench,
		Unit: "op", UnitsPerOp: func(int) float64 { return 1 }, Doc: "ML-KEM-" + p.set + " " + doc}
}

// key returns the decapsulation key of seed's 64 bytes.
func (p kemSet[DK, EK]) key(seed uint64) DK {
	dk, err := p.newDK(opinputs.Bytes(seed, mlkem.SeedSize))
	if err != nil {
		panic(fmt.Sprintf("operations: ML-KEM-%s key generation: %v", p.set, err))
	}
	return dk
}

// keygen generates the key pair of a seed (ML-KEM.KeyGen_internal).
func (p kemSet[DK, EK]) keygen() compose.Op {
	return compose.Op{Kernel: p.kernel("keygen", "KeyGen", "key generation from a 64-byte seed"),
		New: func(seed uint64) (func(), func() []byte) {
			var dk DK
			run := func() { dk = p.key(seed) }
			return run, func() []byte { return dk.EncapsulationKey().Bytes() }
		}}
}

// encapsOp parses an encapsulation key's bytes and encapsulates with
// fixed randomness: what a client that receives the key pays.
func (p kemSet[DK, EK]) encapsOp() compose.Op {
	return compose.Op{Kernel: p.kernel("encaps", "Encaps", "encapsulation from the encapsulation key's bytes"),
		New: func(seed uint64) (func(), func() []byte) {
			ek, m := p.key(seed).EncapsulationKey().Bytes(), opinputs.Bytes(^seed, msgSize)
			var out []byte
			run := func() {
				key, err := p.newEK(ek)
				if err != nil {
					panic(err)
				}
				k, c, err := p.encaps(key, m)
				if err != nil {
					panic(err)
				}
				out = append(append(out[:0], k...), c...)
			}
			return run, func() []byte { return out }
		}}
}

// decapsOp decapsulates a ciphertext with a generated key.
func (p kemSet[DK, EK]) decapsOp() compose.Op {
	return compose.Op{Kernel: p.kernel("decaps", "Decaps", "decapsulation"),
		New: func(seed uint64) (func(), func() []byte) {
			dk := p.key(seed)
			_, c, err := p.encaps(dk.EncapsulationKey(), opinputs.Bytes(^seed, msgSize))
			if err != nil {
				panic(err)
			}
			var out []byte
			run := func() {
				if out, err = dk.Decapsulate(c); err != nil {
					panic(fmt.Sprintf("operations: ML-KEM-%s decapsulation of an honest ciphertext: %v", p.set, err))
				}
			}
			return run, func() []byte { return out }
		}}
}
