package mldsa

import (
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/lab/nttfieldtest"
)

// contractInputs are the inputs the generic code is checked on against
// its contracts (nttfieldtest.ContractInputs).
func contractInputs() []*[256]int32 { return nttfieldtest.ContractInputs(int32(Q)) }

// checkArg fails t if a lane of p is outside the bound b of kernel k's
// parameter.
func checkArg(t *testing.T, k, arg, what string, b *contract.Bound, p *[256]int32) {
	t.Helper()
	nttfieldtest.CheckBound(t, k, arg, what, b, p)
}

// TestGenericContracts: the generic NTT, InvNTT and MulNTT satisfy the
// contracts of internal/contract on the edge and random inputs.
func TestGenericContracts(t *testing.T) { nttfieldtest.GenericContracts(t, field) }

// TestGenericContractCatchesAWideInput: a lane one past the input bound
// is reported (the check can fail).
func TestGenericContractCatchesAWideInput(t *testing.T) {
	nttfieldtest.ContractCatchesAWideInput(t, field)
}

// TestGenericPower2RoundContract: the generic mldsa.power2round satisfies
// its contract on canonical t0 (edge and random) and s2 across (−q, q):
// the canonical inputs less q, as they are and mixed, and the extremes.
func TestGenericPower2RoundContract(t *testing.T) {
	k, ok := contract.Of("mldsa.power2round")
	if !ok {
		t.Fatal("no contract for mldsa.power2round")
	}
	at, _ := k.Arg("t1")
	a0, _ := k.Arg("t0")
	as, _ := k.Arg("s2")
	in := contractInputs()
	for i, p := range in {
		for v := range 3 {
			s2 := *in[(i*5+1)%len(in)]
			for j := range s2 {
				switch {
				case v == 1 || v == 2 && j%2 == 0:
					s2[j] -= Q - 1
				case v == 2 && j%3 == 0:
					s2[j] = [2]int32{-(Q - 1), Q - 1}[j%2]
				}
			}
			checkArg(t, k.Name, "t0", "input", a0.In, p)
			checkArg(t, k.Name, "s2", "input", as.In, &s2)
			var t1 [256]int32
			t0 := *p
			power2RoundGeneric(&t1, &t0, &s2)
			checkArg(t, k.Name, "t1", "output", at.Out, &t1)
			checkArg(t, k.Name, "t0", "output", a0.Out, &t0)
		}
	}
}

// TestGenericResponseContract: the generic mldsa.response satisfies its
// contract on z across [−(γ1 − 1), γ1] (γ1 = 2^19: the edge and random
// inputs scaled into it, and its extremes) and canonical cs1.
func TestGenericResponseContract(t *testing.T) {
	k, ok := contract.Of("mldsa.response")
	if !ok {
		t.Fatal("no contract for mldsa.response")
	}
	az, _ := k.Arg("z")
	ac, _ := k.Arg("cs1")
	in := contractInputs()
	for i, p := range in {
		var z [256]int32
		for j, x := range in[(i*3+2)%len(in)] {
			z[j] = int32(int64(x)*(1<<20-1)/(Q-1)) - (1<<19 - 1)
			if j%7 == 0 {
				z[j] = [2]int32{-(1<<19 - 1), 1 << 19}[j%2]
			}
		}
		checkArg(t, k.Name, "z", "input", az.In, &z)
		checkArg(t, k.Name, "cs1", "input", ac.In, p)
		responseGeneric(&z, p, 1<<19-196)
		checkArg(t, k.Name, "z", "output", az.Out, &z)
	}
}

// TestGenericMatVecContract: the generic mldsa.matvec satisfies its
// contract for every l from 1 to 7 on rows and vectors of the edge and
// random canonical polynomials.
func TestGenericMatVecContract(t *testing.T) {
	k, ok := contract.Of("mldsa.matvec")
	if !ok {
		t.Fatal("no contract for mldsa.matvec")
	}
	aa, _ := k.Arg("a")
	av, _ := k.Arg("v")
	acc, _ := k.Arg("acc")
	in := contractInputs()
	for l := 1; l <= 7; l++ {
		for i := 0; i+2*l <= len(in); i += 2 * l {
			a, v := make([]poly, l), make([]poly, l)
			for j := range l {
				a[j], v[j] = *in[i+j], *in[i+l+j]
				checkArg(t, k.Name, "a", "input", aa.In, &a[j])
				checkArg(t, k.Name, "v", "input", av.In, &v[j])
			}
			var out [256]int32
			matVecGeneric(&out, &a[0], &v[0], l)
			checkArg(t, k.Name, "acc", "output", acc.Out, &out)
		}
	}
}
