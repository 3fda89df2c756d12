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

// checkBytes fails t if a byte of p is outside the bound b of kernel k's
// parameter arg.
func checkBytes(t *testing.T, k, arg, what string, b *contract.Bound, p *[256]uint8) {
	t.Helper()
	if b == nil {
		t.Fatalf("%s.%s has no %s bound", k, arg, what)
	}
	for i, x := range p {
		if int64(x) < b.Lo || int64(x) > b.Hi {
			t.Fatalf("%s.%s %s[%d] = %d outside %v", k, arg, what, i, x, *b)
		}
	}
}

// contractRoundConsts returns the sets of c of kernel k's contract as
// the kernels' roundConsts, failing t unless they are exactly Decompose's
// constants of rounding32 and rounding88 (with a limit the contract's
// bound admits) in that order.
func contractRoundConsts(t *testing.T, k contract.Kernel) []roundConsts {
	t.Helper()
	a, ok := k.Arg("c")
	if !ok || len(a.Sets) != len(roundSets) {
		t.Fatalf("%s: c has %d sets, want %d (one per γ2)", k.Name, len(a.Sets), len(roundSets))
	}
	var cs []roundConsts
	for i, set := range a.Sets {
		want := newRoundConsts(roundSets[i].rd, roundSets[i].limits[0])
		for j := range 3 {
			if set[j].Lo != set[j].Hi || set[j].Lo != int64(want[j]) {
				t.Fatalf("%s: c set %d lane %d is %v, want the constant %d", k.Name, i, j, set[j], want[j])
			}
		}
		for _, l := range roundSets[i].limits[:2] {
			if int64(l) < set[3].Lo || int64(l) > set[3].Hi {
				t.Fatalf("%s: c set %d: the limit %d outside %v", k.Name, i, l, set[3])
			}
		}
		cs = append(cs, want)
	}
	return cs
}

// TestGenericLowBitsContract: the generic mldsa.lowbits satisfies its
// contract for both γ2 (the contract's constants checked against the
// kernels') on canonical w and cs2 of the edge and random inputs.
func TestGenericLowBitsContract(t *testing.T) {
	k, ok := contract.Of("mldsa.lowbits")
	if !ok {
		t.Fatal("no contract for mldsa.lowbits")
	}
	aw, _ := k.Arg("w")
	as, _ := k.Arg("cs2")
	ar, _ := k.Arg("r1")
	in := contractInputs()
	for _, c := range contractRoundConsts(t, k) {
		for i, p := range in {
			w, cs2 := *p, *in[(i*7+3)%len(in)]
			checkArg(t, k.Name, "w", "input", aw.In, &w)
			checkArg(t, k.Name, "cs2", "input", as.In, &cs2)
			var r1 [256]uint8
			lowBitsGeneric(&w, &cs2, &r1, &c)
			checkArg(t, k.Name, "w", "output", aw.Out, &w)
			checkBytes(t, k.Name, "r1", "output", ar.Out, &r1)
		}
	}
}

// TestGenericMakeHintContract: the generic mldsa.makehint satisfies its
// contract for both γ2 on canonical r and ct0 of the edge and random
// inputs, with r1 = HighBits(r) (the lowbits output the signer passes)
// and, for every third coefficient, another value in the contract.
func TestGenericMakeHintContract(t *testing.T) {
	k, ok := contract.Of("mldsa.makehint")
	if !ok {
		t.Fatal("no contract for mldsa.makehint")
	}
	ar, _ := k.Arg("r")
	at, _ := k.Arg("ct0")
	a1, _ := k.Arg("r1")
	ah, _ := k.Arg("h")
	in := contractInputs()
	for _, c := range contractRoundConsts(t, k) {
		rd := roundingOf(&c)
		for i, r := range in {
			ct0 := in[(i*5+1)%len(in)]
			var r1, h [256]uint8
			for j, x := range r {
				r1[j] = uint8(rd.highBits(x))
				if j%3 == 0 {
					r1[j] = uint8((int64(j) + int64(x)) % (a1.In.Hi + 1))
				}
			}
			checkArg(t, k.Name, "r", "input", ar.In, r)
			checkArg(t, k.Name, "ct0", "input", at.In, ct0)
			checkBytes(t, k.Name, "r1", "input", a1.In, &r1)
			makeHintGeneric(r, ct0, &r1, &h, &c)
			checkBytes(t, k.Name, "h", "output", ah.Out, &h)
		}
	}
}
