// Package kernelset is the one registration protocol of every kernel
// family (Keccak, SHA-3, Poly1305, AES-ECB, the NTTs and the coefficient
// kernels of the lattice schemes): one Slot per kernel holds the dispatch
// plan (per message-size class) of the implementations the family's API
// calls. Production knows a kernel by its Prod (name, generic code) and
// its generated production table, and registers nothing; the family's
// RegisterVariants hands the lab its Spec (how to compare a variant with
// the generic code, how to prepare a measured input) and lab table
// (AddLab), which registers the kernel and every variant behind
// kernels/variant. So a production program links none of the lab's
// descriptions, references and verification. Verification, the
// harness's instances, the plan among the variants, forcing one (Use, which the
// registry's records offer the lab's whole-operation compositions) are
// the same for every family.
package kernelset

import (
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A Prod is what production needs of a kernel: its name, its generic
// code and how to resolve a plan's choice. A production program's slots
// hold only these, so that it links none of the lab's descriptions,
// references and verification (Spec), which RegisterVariants hands over.
type Prod[F any] struct {
	Kernel string
	// Generic is the reference: the specification in Go.
	Generic F
	// Resolve, if set, returns the variant to run for plan choice c (its
	// name and function) among the known ones, given the one c names
	// (the generic code where no known variant the host runs has that
	// name).
	Resolve func(c dispatch.Choice, name string, fn F, known []variant.Impl[F]) (string, F)
}

// A Spec describes one kernel whose implementations have type F for the
// lab: its registry record, how to compare a variant with the generic
// code and how to prepare a measured input.
type Spec[F any] struct {
	Family, Bench, Unit, Doc string
	// Sizes, SizeCheck and SizeClasses are those of variant.Kernel: nil
	// Sizes for a kernel of fixed-size input.
	Sizes       []int
	SizeCheck   func(size int) error
	SizeClasses bool
	// UnitsPerOp is that of variant.Kernel; nil: one unit per op.
	UnitsPerOp func(size int) float64
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
}

// A Slot holds the implementations of one kernel that its API calls:
// the dispatch plan among the generic code and the registered variants
// (For, by input size) and its choice at size 0 (Fn).
type Slot[F any] struct {
	Fn    F
	prod  Prod[F]
	lab   Spec[F] // set by AddLab
	known []variant.Impl[F]
	once  sync.Once
	// plan is replaced whole when AddLab or Use re-plans, so a concurrent
	// For sees the old plan or the new one.
	plan atomic.Pointer[plan[F]]
}

// New plans dispatch for p's kernel among its generic code and the
// production table prod. It registers nothing: AddLab does, for the lab.
func New[F any](p Prod[F], prod []variant.Impl[F]) *Slot[F] {
	s := &Slot[F]{prod: p, known: prod}
	s.Replan()
	return s
}

// AddLab registers the kernel as spec describes it, its generic variant,
// the production variants and those of the lab table lab, and plans
// dispatch again among them all, once. Callers of For may run
// concurrently; Fn is safe to read only after AddLab returns.
func (s *Slot[F]) AddLab(spec Spec[F], lab []variant.Impl[F]) {
	s.once.Do(func() {
		s.lab = spec
		units := spec.UnitsPerOp
		if units == nil {
			units = func(int) float64 { return 1 }
		}
		variant.RegisterKernel(variant.Kernel{Name: s.prod.Kernel, Family: spec.Family, Bench: spec.Bench,
			Sizes: spec.Sizes, SizeCheck: spec.SizeCheck, SizeClasses: spec.SizeClasses,
			Unit: spec.Unit, UnitsPerOp: units, Doc: spec.Doc, Selected: s.Selected})
		variant.Register(s.variant(variant.Impl[F]{Name: variant.GenericName, Fn: s.prod.Generic}))
		for _, im := range s.known {
			variant.Register(s.variant(im))
		}
		s.add(lab)
	})
}

// add registers the variants of impls not registered yet (a row of a
// generated lab table without a function must name a production
// variant, which production links), lists the
// known ones in impls' order (the records registered first kept), and
// plans dispatch among them all.
func (s *Slot[F]) add(impls []variant.Impl[F]) {
	list := make([]variant.Impl[F], 0, len(impls))
	for _, im := range impls {
		if old := variant.Find(s.known, im.Name); old != nil {
			im = *old
		} else {
			mustHaveFn(s.prod.Kernel, im)
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
func (s *Slot[F]) Kernel() string { return s.prod.Kernel }

// Known returns the registered assembly variants, in the order of the
// last table added.
func (s *Slot[F]) Known() []variant.Impl[F] { return s.known }

// Verify compares fn with the generic code on every boundary input and
// count pseudo-random inputs from seed.
func (s *Slot[F]) Verify(name string, fn F, seed uint64, count int) error {
	for i := range s.lab.Edges + count {
		if err := s.lab.Check(s.prod.Kernel, name, fn, s.prod.Generic, i, seed); err != nil {
			return err
		}
	}
	return nil
}

// variant returns the registry record of im.
func (s *Slot[F]) variant(im variant.Impl[F]) variant.Variant {
	v := im.Variant(s.prod.Kernel)
	v.Use = func() (func(), error) { return s.Use(im.Name) }
	switch {
	case im.Symbol == "":
	case s.lab.LoopTrips != nil:
		v.LoopTrips = s.lab.LoopTrips(&v)
	case im.LoopLabel == "":
		v.LoopTrips = func(int) float64 { return 1 } // straight-line code
	}
	if s.lab.Instance != nil {
		v.New = func(size int, seed uint64) variant.Instance { return s.lab.Instance(im.Name, im.Fn, size, seed) }
		v.Verify = func(size int, seed uint64) error { return s.lab.VerifyAt(im.Name, im.Features, im.Fn, size, seed) }
		return v
	}
	v.New = func(_ int, seed uint64) variant.Instance {
		return &instance[F]{s: s, name: im.Name, fn: im.Fn, seed: seed, run: s.lab.Prepare(im.Fn, seed)}
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

// mustHaveFn panics if im, a variant unknown to production, has no
// function: its lab table says production links it, and production's
// table disagrees (tables of different generator runs).
func mustHaveFn[F any](kernel string, im variant.Impl[F]) {
	v := reflect.ValueOf(im.Fn)
	if !v.IsValid() || (v.Kind() == reflect.Func || v.Kind() == reflect.Pointer) && v.IsNil() {
		panic(fmt.Sprintf("kernelset: lab table row %s %s has no function and names no production variant: regenerate (go generate ./...)", kernel, im.Name))
	}
}
