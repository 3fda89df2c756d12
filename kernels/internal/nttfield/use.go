package nttfield

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
)

// remember records implementations for Use.
func (s *Set[E]) remember(ntt, invNTT []variant.Impl[Unary[E]], mulNTT []variant.Impl[Binary[E]]) {
	s.knownNTT = append(s.knownNTT, ntt...)
	s.knownInvNTT = append(s.knownInvNTT, invNTT...)
	s.knownMulNTT = append(s.knownMulNTT, mulNTT...)
}

// Use makes the set's functions call the registered variants named ntt,
// invNTT and mulNTT ("" keeps the current choice, variant.GenericName is
// the reference) and returns a function that restores the previous ones.
// The lab composes kernel choices this way to measure whole operations
// (e.g. an ML-KEM key generation on the generic NTT); it refuses a variant
// whose CPU features the host lacks. Use is not safe while the kernels run
// concurrently.
func (s *Set[E]) Use(ntt, invNTT, mulNTT string) (restore func(), err error) {
	n, err := pick(s.t.NTTSpec.Kernel, ntt, s.NTT, s.t.NTT, s.knownNTT)
	if err != nil {
		return nil, err
	}
	inv, err := pick(s.t.InvNTTSpec.Kernel, invNTT, s.InvNTT, s.t.InvNTT, s.knownInvNTT)
	if err != nil {
		return nil, err
	}
	mul, err := pick(s.t.MulNTTSpec.Kernel, mulNTT, s.MulNTT, s.t.MulNTT, s.knownMulNTT)
	if err != nil {
		return nil, err
	}
	old := [3]any{s.NTT, s.InvNTT, s.MulNTT}
	s.NTT, s.InvNTT, s.MulNTT = n, inv, mul
	return func() { s.NTT, s.InvNTT, s.MulNTT = old[0].(Unary[E]), old[1].(Unary[E]), old[2].(Binary[E]) }, nil
}

// pick returns the implementation named name of kernel: cur for "", ref
// for the generic name, else the known one, if the host can run it.
func pick[F any](kernel, name string, cur, ref F, known []variant.Impl[F]) (F, error) {
	switch name {
	case "":
		return cur, nil
	case variant.GenericName:
		return ref, nil
	}
	for _, im := range known {
		if im.Name != name {
			continue
		}
		if !cpu.Has(im.Features...) {
			return cur, fmt.Errorf("%s: variant %s cannot run on this CPU", kernel, name)
		}
		return im.Fn, nil
	}
	return cur, fmt.Errorf("%s: no registered variant %s", kernel, name)
}
