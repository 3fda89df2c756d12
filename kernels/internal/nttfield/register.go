package nttfield

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Unary is an in-place transform (NTT, InvNTT).
type Unary[E polyvec.Elem] = func(*polyvec.Poly[E])

// Binary is a product h = f∘g (MulNTT).
type Binary[E polyvec.Elem] = func(h, f, g *polyvec.Poly[E])

// A Spec names a kernel and its field.
type Spec[E polyvec.Elem] struct {
	Kernel, Family, Bench, Doc string
	Q                          E
}

// slotSpec describes spec's kernel for kernelset: the generic code ref,
// instances from newInstance, verification by verify (VerifyUnary or
// VerifyBinary).
func slotSpec[E polyvec.Elem, F any](spec Spec[E], ref F, newInstance func(name string, fn F, seed uint64) variant.Instance,
	verify func(spec Spec[E], name string, fn, ref F, seed uint64, count int) error) kernelset.Spec[F] {
	return kernelset.Spec[F]{
		Family: spec.Family, Bench: spec.Bench, Unit: "poly", Doc: spec.Doc,
		Instance: func(name string, fn F, _ int, seed uint64) variant.Instance { return newInstance(name, fn, seed) },
		VerifyAt: func(name string, _ []string, fn F, _ int, seed uint64) error {
			return verify(spec, name, fn, ref, seed, 64)
		},
		LoopTrips: loopTrips,
	}
}

// unaryLabSpec describes spec's kernel, of generic code ref, for the lab.
func unaryLabSpec[E polyvec.Elem](spec Spec[E], ref Unary[E]) kernelset.Spec[Unary[E]] {
	newInstance := func(name string, fn Unary[E], seed uint64) variant.Instance {
		in := &unaryInstance[E]{spec: spec, name: name, fn: fn, ref: ref, rng: polyvec.NewRand(seed)}
		polyvec.Fill(in.rng, spec.Q, &in.p)
		return in
	}
	return slotSpec(spec, ref, newInstance, VerifyUnary[E])
}

// binaryLabSpec is unaryLabSpec for products.
func binaryLabSpec[E polyvec.Elem](spec Spec[E], ref Binary[E]) kernelset.Spec[Binary[E]] {
	newInstance := func(name string, fn Binary[E], seed uint64) variant.Instance {
		in := &binaryInstance[E]{spec: spec, name: name, fn: fn, ref: ref, rng: polyvec.NewRand(seed)}
		polyvec.Fill(in.rng, spec.Q, &in.f)
		polyvec.Fill(in.rng, spec.Q, &in.g)
		return in
	}
	return slotSpec(spec, ref, newInstance, VerifyBinary[E])
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

type unaryInstance[E polyvec.Elem] struct {
	spec    Spec[E]
	name    string
	fn, ref Unary[E]
	rng     *polyvec.Rand
	p       polyvec.Poly[E]
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

type binaryInstance[E polyvec.Elem] struct {
	spec    Spec[E]
	name    string
	fn, ref Binary[E]
	rng     *polyvec.Rand
	h, f, g polyvec.Poly[E]
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
func VerifyUnary[E polyvec.Elem](spec Spec[E], name string, fn, ref Unary[E], seed uint64, count int) error {
	var in, got, want polyvec.Poly[E]
	check := func(input string) error {
		got, want = in, in
		fn(&got)
		ref(&want)
		return kernelset.Diff(spec.Kernel, name, input, got[:], want[:])
	}
	for _, e := range polyvec.Edges {
		polyvec.SetEdge(e, spec.Q, &in)
		if err := check(e.Name); err != nil {
			return err
		}
	}
	rng := polyvec.NewRand(seed)
	for i := range count {
		polyvec.Fill(rng, spec.Q, &in)
		if err := check(fmt.Sprintf("random #%d (seed %#x)", i, seed)); err != nil {
			return err
		}
	}
	return nil
}

// VerifyBinary is VerifyUnary for products; edge inputs are used for both
// factors in every combination.
func VerifyBinary[E polyvec.Elem](spec Spec[E], name string, fn, ref Binary[E], seed uint64, count int) error {
	var f, g, got, want polyvec.Poly[E]
	check := func(input string) error {
		fn(&got, &f, &g)
		ref(&want, &f, &g)
		return kernelset.Diff(spec.Kernel, name, input, got[:], want[:])
	}
	for _, ef := range polyvec.Edges {
		for _, eg := range polyvec.Edges {
			polyvec.SetEdge(ef, spec.Q, &f)
			polyvec.SetEdge(eg, spec.Q, &g)
			if err := check(ef.Name + " x " + eg.Name); err != nil {
				return err
			}
		}
	}
	rng := polyvec.NewRand(seed)
	for i := range count {
		polyvec.Fill(rng, spec.Q, &f)
		polyvec.Fill(rng, spec.Q, &g)
		if err := check(fmt.Sprintf("random #%d (seed %#x)", i, seed)); err != nil {
			return err
		}
	}
	return nil
}

// kernelNames are the names of the three kernels after the scheme's
// prefix, their benchmarks' after Bench and their descriptions'.
var kernelNames = [3]struct{ kernel, bench, doc string }{
	{"ntt", "NTT", "NTT"},
	{"invntt", "InvNTT", "inverse NTT"},
	{"mulntt", "MulNTT", "NTT-domain product"},
}

// spec returns the Spec of kernel k (0: NTT, 1: InvNTT, 2: MulNTT).
func (t *Set[E]) spec(k int) Spec[E] {
	nm := kernelNames[k]
	return Spec[E]{Kernel: t.Name + "." + nm.kernel, Family: "ntt", Bench: t.Bench + nm.bench,
		Doc: fmt.Sprintf("%s %s (%s Alg. %d)", t.Title, nm.doc, t.Standard, t.Algs[k]), Q: t.Q}
}

// A Set holds the implementations a field's public API calls, one
// kernelset.Slot per kernel (the API calls its Fn), and the field's
// names. A family declares it, and each slot as a variable of its own,
// statically initialized (see kernelset.Slot), so that a program calling
// only the NTT links only the NTT's variants; RegisterLab registers the
// lab's.
type Set[E polyvec.Elem] struct {
	NTT, InvNTT *kernelset.Slot[Unary[E]]
	MulNTT      *kernelset.Slot[Binary[E]]
	// Name and Bench prefix the kernels' and benchmarks' names ("mlkem":
	// mlkem.ntt, mlkem.invntt, mlkem.mulntt; "MLKEM": MLKEMNTT, ...);
	// Title, Standard and Algs (the standard's algorithm numbers of NTT,
	// InvNTT and MulNTT) make their descriptions.
	Name, Bench, Title, Standard string
	Algs                         [3]int
	Q                            E
}

// RegisterLab registers the kernels, their generic, production and lab
// variants, once; dispatch then chooses among all of them. Call it
// before the kernels run concurrently.
func (s *Set[E]) RegisterLab(ntt, invNTT []variant.Impl[Unary[E]], mulNTT []variant.Impl[Binary[E]]) {
	for k, name := range []string{s.NTT.Name, s.InvNTT.Name, s.MulNTT.Name} {
		if want := s.spec(k).Kernel; name != want {
			panic(fmt.Sprintf("nttfield: slot %d of %s is named %s, want %s", k, s.Name, name, want))
		}
	}
	s.NTT.AddLab(unaryLabSpec(s.spec(0), s.NTT.Generic), ntt)
	s.InvNTT.AddLab(unaryLabSpec(s.spec(1), s.InvNTT.Generic), invNTT)
	s.MulNTT.AddLab(binaryLabSpec(s.spec(2), s.MulNTT.Generic), mulNTT)
}
