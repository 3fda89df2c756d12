package nttfieldtest

import (
	"testing"

	"github.com/tunelab/tunelab/internal/contract"
	"github.com/tunelab/tunelab/internal/polyvec"
)

// ContractInputs are the inputs the generic code is checked on against
// its contracts: the edge polynomials and random canonical ones.
func ContractInputs[E polyvec.Elem](q E) []*polyvec.Poly[E] {
	var ps []*polyvec.Poly[E]
	for _, e := range polyvec.Edges {
		p := new(polyvec.Poly[E])
		polyvec.SetEdge(e, q, p)
		ps = append(ps, p)
	}
	r := polyvec.NewRand(42)
	for range 64 {
		p := new(polyvec.Poly[E])
		polyvec.Fill(r, q, p)
		ps = append(ps, p)
	}
	return ps
}

// CheckBound fails t if a lane of p is outside the bound b of kernel k's
// parameter arg (what: "input" or "output").
func CheckBound[E polyvec.Elem](t testing.TB, k, arg, what string, b *contract.Bound, p *polyvec.Poly[E]) {
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

// contractOf returns kernel k's contract and the bounds of its argument
// arg, failing t if either is missing.
func contractOf(t testing.TB, k, arg string) (contract.Kernel, contract.Arg) {
	t.Helper()
	c, ok := contract.Of(k)
	if !ok {
		t.Fatalf("no contract for %s", k)
	}
	a, ok := c.Arg(arg)
	if !ok {
		t.Fatalf("contract %s has no argument %s", k, arg)
	}
	return c, a
}

// GenericContracts is the body of TestGenericContracts: the generic NTT,
// InvNTT and MulNTT of fd satisfy the contracts of internal/contract on
// the edge and random inputs: the inputs lie within the input bound, the
// outputs within the output bound.
func GenericContracts[E polyvec.Elem](t *testing.T, fd Field[E]) {
	in := ContractInputs(fd.Q)
	for _, u := range fd.unaries() {
		k := fd.Kernel(u.op)
		_, f := contractOf(t, k, "f")
		for _, p := range in {
			CheckBound(t, k, "f", "input", f.In, p)
			out := *p
			u.ref(&out)
			CheckBound(t, k, "f", "output", f.Out, &out)
		}
	}
	k := fd.Kernel("mulntt")
	_, h := contractOf(t, k, "h")
	_, a := contractOf(t, k, "a")
	_, b := contractOf(t, k, "b")
	for i, p := range in {
		q := in[(i*7+3)%len(in)]
		CheckBound(t, k, "a", "input", a.In, p)
		CheckBound(t, k, "b", "input", b.In, q)
		var out polyvec.Poly[E]
		fd.MulNTT(&out, p, q)
		CheckBound(t, k, "h", "output", h.Out, &out)
	}
}

// ContractCatchesAWideInput is the body of
// TestGenericContractCatchesAWideInput: a lane one past the NTT's input
// bound is reported (the check can fail).
func ContractCatchesAWideInput[E polyvec.Elem](t *testing.T, fd Field[E]) {
	k := fd.Kernel("ntt")
	_, f := contractOf(t, k, "f")
	p := new(polyvec.Poly[E])
	p[17] = E(f.In.Hi + 1)
	ft := &testing.T{}
	done := make(chan bool)
	go func() {
		defer func() { done <- ft.Failed() }()
		CheckBound(ft, k, "f", "input", f.In, p)
	}()
	if !<-done {
		t.Fatal("an input lane one past the input bound passed it")
	}
}
