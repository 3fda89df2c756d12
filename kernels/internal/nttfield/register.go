package nttfield

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/tunelab/tunelab/kernels/variant"
)

// Unary is an in-place transform (NTT, InvNTT).
type Unary[E Elem] = func(*Poly[E])

// Binary is a product h = f∘g (MulNTT).
type Binary[E Elem] = func(h, f, g *Poly[E])

// A Spec names a kernel and its field.
type Spec[E Elem] struct {
	Kernel, Family, Bench, Doc string
	Q                          E
}

// RegisterUnary registers spec's kernel, its generic variant ref and the
// assembly variants impls (in production, the production table), and
// returns the function dispatch selects among them.
func RegisterUnary[E Elem](spec Spec[E], ref Unary[E], impls []variant.Impl[Unary[E]]) Unary[E] {
	registerKernel(spec)
	variant.Register(unaryVariant(spec, variant.Impl[Unary[E]]{Name: variant.GenericName, Fn: ref}, ref))
	return AddUnary(spec, ref, impls)
}

// AddUnary registers the variants of impls that are not registered yet
// (for the lab: the lab table after the production one) and returns the
// function dispatch selects among impls. spec's kernel must be registered.
func AddUnary[E Elem](spec Spec[E], ref Unary[E], impls []variant.Impl[Unary[E]]) Unary[E] {
	for _, im := range impls {
		if variant.Lookup(spec.Kernel, im.Name) == nil {
			variant.Register(unaryVariant(spec, im, ref))
		}
	}
	return variant.Choose(spec.Kernel, ref, impls)
}

// RegisterBinary is RegisterUnary for products.
func RegisterBinary[E Elem](spec Spec[E], ref Binary[E], impls []variant.Impl[Binary[E]]) Binary[E] {
	registerKernel(spec)
	variant.Register(binaryVariant(spec, variant.Impl[Binary[E]]{Name: variant.GenericName, Fn: ref}, ref))
	return AddBinary(spec, ref, impls)
}

// AddBinary is AddUnary for products.
func AddBinary[E Elem](spec Spec[E], ref Binary[E], impls []variant.Impl[Binary[E]]) Binary[E] {
	for _, im := range impls {
		if variant.Lookup(spec.Kernel, im.Name) == nil {
			variant.Register(binaryVariant(spec, im, ref))
		}
	}
	return variant.Choose(spec.Kernel, ref, impls)
}

func registerKernel[E Elem](spec Spec[E]) {
	variant.RegisterKernel(variant.Kernel{
		Name: spec.Kernel, Family: spec.Family, Bench: spec.Bench,
		Unit: "poly", UnitsPerOp: func(int) float64 { return 1 }, Doc: spec.Doc,
	})
}

func unaryVariant[E Elem](spec Spec[E], im variant.Impl[Unary[E]], ref Unary[E]) variant.Variant {
	v := baseVariant(spec.Kernel, im)
	v.New = func(_ int, seed uint64) variant.Instance {
		in := &unaryInstance[E]{spec: spec, name: im.Name, fn: im.Fn, ref: ref, rng: NewRand(seed)}
		Fill(in.rng, spec.Q, &in.p)
		return in
	}
	v.Verify = func(_ int, seed uint64) error { return VerifyUnary(spec, im.Name, im.Fn, ref, seed, 64) }
	return v
}

func binaryVariant[E Elem](spec Spec[E], im variant.Impl[Binary[E]], ref Binary[E]) variant.Variant {
	v := baseVariant(spec.Kernel, im)
	v.New = func(_ int, seed uint64) variant.Instance {
		in := &binaryInstance[E]{spec: spec, name: im.Name, fn: im.Fn, ref: ref, rng: NewRand(seed)}
		Fill(in.rng, spec.Q, &in.f)
		Fill(in.rng, spec.Q, &in.g)
		return in
	}
	v.Verify = func(_ int, seed uint64) error { return VerifyBinary(spec, im.Name, im.Fn, ref, seed, 64) }
	return v
}

func baseVariant[F any](kernel string, im variant.Impl[F]) variant.Variant {
	v := im.Variant(kernel)
	v.LoopTrips = loopTrips(&v)
	return v
}

// loopTrips returns the runs of v's hot code per call: a fully unrolled
// NTT's straight-line body (from label "body", or the whole function when
// align=none leaves it unlabelled) runs once; a MulNTT loop covers unroll
// vectors of 256-bit (avx2, avx512vl) or 512-bit (avx512) coefficients
// per iteration.
func loopTrips(v *variant.Variant) func(int) float64 {
	switch {
	case v.Symbol == "":
		return nil
	case v.LoopLabel == "body", v.LoopLabel == "":
		return func(int) float64 { return 1 }
	}
	unroll, err := strconv.Atoi(v.Knob("unroll"))
	bits := map[string]int{"avx2": 256, "avx512vl": 256, "avx512": 512}[v.Knob("isa")]
	elem := 32
	if strings.HasPrefix(v.Kernel, "mlkem.") {
		elem = 16
	}
	if err != nil || bits == 0 {
		return nil
	}
	trips := 256 / float64(bits/elem*unroll)
	return func(int) float64 { return trips }
}

type unaryInstance[E Elem] struct {
	spec    Spec[E]
	name    string
	fn, ref Unary[E]
	rng     *Rand
	p       Poly[E]
}

// Run transforms the prepared polynomial n times; outputs are canonical,
// so each run's output is a valid input of the next.
func (in *unaryInstance[E]) Run(n int) {
	for range n {
		in.fn(&in.p)
	}
}

func (in *unaryInstance[E]) Check() error {
	return VerifyUnary(in.spec, in.name, in.fn, in.ref, in.rng.Uint64(), 4)
}

type binaryInstance[E Elem] struct {
	spec    Spec[E]
	name    string
	fn, ref Binary[E]
	rng     *Rand
	h, f, g Poly[E]
}

func (in *binaryInstance[E]) Run(n int) {
	for range n {
		in.fn(&in.h, &in.f, &in.g)
	}
}

func (in *binaryInstance[E]) Check() error {
	return VerifyBinary(in.spec, in.name, in.fn, in.ref, in.rng.Uint64(), 4)
}

// VerifyUnary compares fn with ref on every edge input and on count random
// polynomials derived from seed; it returns a *variant.Mismatch on the
// first difference.
func VerifyUnary[E Elem](spec Spec[E], name string, fn, ref Unary[E], seed uint64, count int) error {
	var in, got, want Poly[E]
	check := func(input string) error {
		got, want = in, in
		fn(&got)
		ref(&want)
		return mismatch(spec.Kernel, name, input, &got, &want)
	}
	for _, e := range Edges {
		SetEdge(e, spec.Q, &in)
		if err := check(e.Name); err != nil {
			return err
		}
	}
	rng := NewRand(seed)
	for i := range count {
		Fill(rng, spec.Q, &in)
		if err := check(fmt.Sprintf("random #%d (seed %#x)", i, seed)); err != nil {
			return err
		}
	}
	return nil
}

// VerifyBinary is VerifyUnary for products; edge inputs are used for both
// factors in every combination.
func VerifyBinary[E Elem](spec Spec[E], name string, fn, ref Binary[E], seed uint64, count int) error {
	var f, g, got, want Poly[E]
	check := func(input string) error {
		fn(&got, &f, &g)
		ref(&want, &f, &g)
		return mismatch(spec.Kernel, name, input, &got, &want)
	}
	for _, ef := range Edges {
		for _, eg := range Edges {
			SetEdge(ef, spec.Q, &f)
			SetEdge(eg, spec.Q, &g)
			if err := check(ef.Name + " x " + eg.Name); err != nil {
				return err
			}
		}
	}
	rng := NewRand(seed)
	for i := range count {
		Fill(rng, spec.Q, &f)
		Fill(rng, spec.Q, &g)
		if err := check(fmt.Sprintf("random #%d (seed %#x)", i, seed)); err != nil {
			return err
		}
	}
	return nil
}

func mismatch[E Elem](kernel, name, input string, got, want *Poly[E]) error {
	i := FirstDiff(got, want)
	if i < 0 {
		return nil
	}
	return &variant.Mismatch{Kernel: kernel, Variant: name, Input: input, Index: i,
		Got: fmt.Sprint(got[i]), Want: fmt.Sprint(want[i])}
}

// A Tables is a field's generic code and production tables for its three
// kernels. The lab tables are passed to RegisterLab only, so that a
// binary that never calls it does not link them.
type Tables[E Elem] struct {
	NTT, InvNTT         Unary[E]
	MulNTT              Binary[E]
	ProdNTT, ProdInvNTT []variant.Impl[Unary[E]]
	ProdMulNTT          []variant.Impl[Binary[E]]
	NTTSpec, InvNTTSpec Spec[E]
	MulNTTSpec          Spec[E]
}

// A Set holds the implementations a field's public API calls: chosen
// among the production tables by NewSet, and again among the lab tables by
// RegisterLab.
type Set[E Elem] struct {
	NTT, InvNTT Unary[E]
	MulNTT      Binary[E]
	t           Tables[E]
	once        sync.Once
	// known are the implementations registered so far, for Use.
	knownNTT, knownInvNTT []variant.Impl[Unary[E]]
	knownMulNTT           []variant.Impl[Binary[E]]
}

// NewSet registers the three kernels with their generic and production
// variants and chooses the implementations among them.
func NewSet[E Elem](t Tables[E]) *Set[E] {
	s := &Set[E]{
		NTT:    RegisterUnary(t.NTTSpec, t.NTT, t.ProdNTT),
		InvNTT: RegisterUnary(t.InvNTTSpec, t.InvNTT, t.ProdInvNTT),
		MulNTT: RegisterBinary(t.MulNTTSpec, t.MulNTT, t.ProdMulNTT),
		t:      t,
	}
	s.remember(t.ProdNTT, t.ProdInvNTT, t.ProdMulNTT)
	return s
}

// RegisterLab registers the variants of the lab tables that production
// did not and chooses the implementations again among all of them, once;
// call it before the kernels run concurrently.
func (s *Set[E]) RegisterLab(ntt, invNTT []variant.Impl[Unary[E]], mulNTT []variant.Impl[Binary[E]]) {
	s.once.Do(func() {
		s.NTT = AddUnary(s.t.NTTSpec, s.t.NTT, ntt)
		s.InvNTT = AddUnary(s.t.InvNTTSpec, s.t.InvNTT, invNTT)
		s.MulNTT = AddBinary(s.t.MulNTTSpec, s.t.MulNTT, mulNTT)
		s.remember(ntt, invNTT, mulNTT)
	})
}
