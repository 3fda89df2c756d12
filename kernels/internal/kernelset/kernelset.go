// Package kernelset is the one registration protocol of every kernel
// family (Keccak, SHA-3, Poly1305, AES-ECB, the NTTs and the coefficient
// kernels of the lattice schemes): it registers each kernel behind
// kernels/variant, one Slot per kernel, with the dispatch plan (per
// message-size class) of the implementations the family's API calls. A
// family describes each kernel once (Spec: its generic code, how to
// compare a variant with it, how to prepare a measured input) and hands
// over its generated production table at init and its lab table from its
// RegisterVariants; verification, the harness's instances, the plan among
// the variants, forcing one (Use) and the whole-operation composition
// knob (TierKnob) are the same for every family.
package kernelset

import (
	"sync"
	"sync/atomic"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A Spec describes one kernel whose implementations have type F.
type Spec[F any] struct {
	Kernel, Family, Bench, Unit, Doc string
	// Sizes, SizeCheck and SizeClasses are those of variant.Kernel: nil
	// Sizes for a kernel of fixed-size input.
	Sizes       []int
	SizeCheck   func(size int) error
	SizeClasses bool
	// UnitsPerOp is that of variant.Kernel; nil: one unit per op.
	UnitsPerOp func(size int) float64
	// Generic is the reference: the specification in Go.
	Generic F
	// Edges is the number of boundary inputs Check knows.
	Edges int
	// Check runs fn and ref on input i (i < Edges: boundary input i;
	// else a pseudo-random input from seed and i) and returns a
	// *variant.Mismatch naming kernel, variant name and input where their
	// outputs differ, nil where they agree.
	Check func(kernel, name string, fn, ref F, i int, seed uint64) error
	// Prepare prepares an input from seed and returns a function running
	// fn n times on it, for the harness.
	Prepare func(fn F, seed uint64) func(n int)
	// Instance and VerifyAt, both set, replace Check and Prepare for a
	// kernel of sized inputs: Instance prepares an input of size bytes
	// for the variant named name, VerifyAt compares the variant (with its
	// CPU features) with the reference on inputs of size bytes.
	Instance func(name string, fn F, size int, seed uint64) variant.Instance
	VerifyAt func(name string, features []string, fn F, size int, seed uint64) error
	// LoopTrips, if set, returns the main-loop trips per op of generated
	// variant v (nil: unknown); unset, a variant without a loop label
	// runs straight-line code once per op.
	LoopTrips func(v *variant.Variant) func(size int) float64
	// Resolve, if set, returns the variant to run for plan choice c (its
	// name and function) among the known ones, given the one c names
	// (the generic code where no known variant the host runs has that
	// name).
	Resolve func(c dispatch.Choice, name string, fn F, known []variant.Impl[F]) (string, F)
}

// A Slot holds the implementations of one kernel that its API calls:
// the dispatch plan among the generic code and the registered variants
// (For, by input size) and its choice at size 0 (Fn).
type Slot[F any] struct {
	Fn    F
	spec  Spec[F]
	known []variant.Impl[F]
	once  sync.Once
	// plan is replaced whole when AddLab or Use re-plans, so a concurrent
	// For sees the old plan or the new one.
	plan atomic.Pointer[plan[F]]
}

// New registers spec's kernel, its generic variant and the production
// table prod, and plans dispatch among them.
func New[F any](spec Spec[F], prod []variant.Impl[F]) *Slot[F] {
	units := spec.UnitsPerOp
	if units == nil {
		units = func(int) float64 { return 1 }
	}
	variant.RegisterKernel(variant.Kernel{Name: spec.Kernel, Family: spec.Family, Bench: spec.Bench,
		Sizes: spec.Sizes, SizeCheck: spec.SizeCheck, SizeClasses: spec.SizeClasses,
		Unit: spec.Unit, UnitsPerOp: units, Doc: spec.Doc})
	s := &Slot[F]{spec: spec}
	variant.Register(s.variant(variant.Impl[F]{Name: variant.GenericName, Fn: spec.Generic}))
	s.add(prod)
	return s
}

// AddLab registers the variants of the lab table lab that production did
// not and plans dispatch again among all of them, once. Callers of For
// may run concurrently; Fn is safe to read only after AddLab returns.
func (s *Slot[F]) AddLab(lab []variant.Impl[F]) { s.once.Do(func() { s.add(lab) }) }

// add registers the variants of impls not registered yet, lists the
// known ones in impls' order (the records registered first kept), and
// plans dispatch among them all.
func (s *Slot[F]) add(impls []variant.Impl[F]) {
	list := make([]variant.Impl[F], 0, len(impls))
	for _, im := range impls {
		if old := variant.Find(s.known, im.Name); old != nil {
			im = *old
		} else {
			variant.Register(s.variant(im))
		}
		list = append(list, im)
	}
	for _, im := range s.known {
		if variant.Find(list, im.Name) == nil {
			list = append(list, im)
		}
	}
	s.known = list
	s.Replan()
}

// Kernel returns the kernel's name.
func (s *Slot[F]) Kernel() string { return s.spec.Kernel }

// Known returns the registered assembly variants, in the order of the
// last table added.
func (s *Slot[F]) Known() []variant.Impl[F] { return s.known }

// Verify compares fn with the generic code on every boundary input and
// count pseudo-random inputs from seed.
func (s *Slot[F]) Verify(name string, fn F, seed uint64, count int) error {
	for i := range s.spec.Edges + count {
		if err := s.spec.Check(s.spec.Kernel, name, fn, s.spec.Generic, i, seed); err != nil {
			return err
		}
	}
	return nil
}

// variant returns the registry record of im.
func (s *Slot[F]) variant(im variant.Impl[F]) variant.Variant {
	v := im.Variant(s.spec.Kernel)
	switch {
	case im.Symbol == "":
	case s.spec.LoopTrips != nil:
		v.LoopTrips = s.spec.LoopTrips(&v)
	case im.LoopLabel == "":
		v.LoopTrips = func(int) float64 { return 1 } // straight-line code
	}
	if s.spec.Instance != nil {
		v.New = func(size int, seed uint64) variant.Instance { return s.spec.Instance(im.Name, im.Fn, size, seed) }
		v.Verify = func(size int, seed uint64) error { return s.spec.VerifyAt(im.Name, im.Features, im.Fn, size, seed) }
		return v
	}
	v.New = func(_ int, seed uint64) variant.Instance {
		return &instance[F]{s: s, name: im.Name, fn: im.Fn, seed: seed, run: s.spec.Prepare(im.Fn, seed)}
	}
	v.Verify = func(_ int, seed uint64) error { return s.Verify(im.Name, im.Fn, seed, 64) }
	return v
}

// An instance is a prepared input of one variant.
type instance[F any] struct {
	s    *Slot[F]
	name string
	fn   F
	seed uint64
	run  func(n int)
}

func (in *instance[F]) Run(n int) { in.run(n) }

func (in *instance[F]) Check() error {
	in.seed++
	return in.s.Verify(in.name, in.fn, in.seed, 4)
}
