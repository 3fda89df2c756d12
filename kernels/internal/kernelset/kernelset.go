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
// (For, by input size) and its choice at size 0 (Fn). A family declares
// each slot as its own package-level variable, statically initialized
// (a composite literal of its exported fields, no constructor call), so
// that a program links a kernel's generated functions only if it calls
// the kernel: nothing runs at init, and the plan is made at the first
// call (or when the lab registers its variants after one).
type Slot[F any] struct {
	// Name is the kernel's name ("mldsa.ntt").
	Name string
	// Generic is the reference: the specification in Go.
	Generic F
	// Table is the generated production table: the variants the
	// compiled dispatch table can select.
	Table []variant.Impl[F]
	// Resolve, if set, returns the variant to run for plan choice c (its
	// name and function) among the known ones, given the one c names
	// (the generic code where no known variant the host runs has that
	// name).
	Resolve func(c dispatch.Choice, name string, fn F, known []variant.Impl[F]) (string, F)
	// MakeTable, if set, returns the production table instead of Table,
	// at the first plan or registration: for a table that is derived
	// (merged, filtered) from generated ones.
	MakeTable func() []variant.Impl[F]
	// AfterPlan, if set, runs after each plan is made, with the slot
	// locked: what the family derives from the plan (a fallback that
	// dispatch reports, see dispatch.Fallback). It must not call the
	// slot's own methods.
	AfterPlan func()

	mu      sync.Mutex // serializes planning and registration
	lab     Spec[F]    // set by AddLab
	labbed  bool
	made    bool              // MakeTable ran: its table is in prod
	prod    []variant.Impl[F] // MakeTable's table
	known   []variant.Impl[F] // nil: the production table
	planned atomic.Pointer[plan[F]]
}

// prodLocked returns the production table, with s.mu held.
func (s *Slot[F]) prodLocked() []variant.Impl[F] {
	if s.MakeTable == nil {
		return s.Table
	}
	if !s.made {
		s.made, s.prod = true, s.MakeTable()
	}
	return s.prod
}

// AddLab registers the kernel as spec describes it, its generic variant,
// the production variants and those of the lab table lab, once; the
// kernel is then planned among them all at its first call (again, if it
// was called before). Callers of For may run concurrently.
func (s *Slot[F]) AddLab(spec Spec[F], lab []variant.Impl[F]) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.labbed {
		return
	}
	s.labbed, s.lab = true, spec
	units := spec.UnitsPerOp
	if units == nil {
		units = func(int) float64 { return 1 }
	}
	variant.RegisterKernel(variant.Kernel{Name: s.Name, Family: spec.Family, Bench: spec.Bench,
		Sizes: spec.Sizes, SizeCheck: spec.SizeCheck, SizeClasses: spec.SizeClasses,
		Unit: spec.Unit, UnitsPerOp: units, Doc: spec.Doc, Selected: s.Selected})
	variant.Register(s.variant(variant.Impl[F]{Name: variant.GenericName, Fn: s.Generic}))
	for _, im := range s.prodLocked() {
		variant.Register(s.variant(im))
	}
	s.add(lab)
}

// add registers the variants of impls not registered yet (a row of a
// generated lab table without a function must name a production
// variant, which production links) and lists the known ones in impls'
// order (the records registered first kept); a kernel already planned is
// planned again among them all.
func (s *Slot[F]) add(impls []variant.Impl[F]) {
	prod := s.prodLocked()
	list := make([]variant.Impl[F], 0, len(impls))
	for _, im := range impls {
		if old := variant.Find(prod, im.Name); old != nil {
			im = *old
		} else {
			mustHaveFn(s.Name, im)
			variant.Register(s.variant(im))
		}
		list = append(list, im)
	}
	for _, im := range prod {
		if variant.Find(list, im.Name) == nil {
			list = append(list, im)
		}
	}
	s.known = list
	if s.planned.Load() != nil {
		s.replan()
	}
}

// Kernel returns the kernel's name.
func (s *Slot[F]) Kernel() string { return s.Name }

// Known returns the assembly variants dispatch chooses among: the
// production table, or, once the lab registered, every variant in the
// order of its table.
func (s *Slot[F]) Known() []variant.Impl[F] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.knownLocked()
}

// knownLocked is Known with s.mu held.
func (s *Slot[F]) knownLocked() []variant.Impl[F] {
	if s.known == nil {
		return s.prodLocked()
	}
	return s.known
}

// Verify compares fn with the generic code on every boundary input and
// count pseudo-random inputs from seed.
func (s *Slot[F]) Verify(name string, fn F, seed uint64, count int) error {
	for i := range s.lab.Edges + count {
		if err := s.lab.Check(s.Name, name, fn, s.Generic, i, seed); err != nil {
			return err
		}
	}
	return nil
}

// variant returns the registry record of im.
func (s *Slot[F]) variant(im variant.Impl[F]) variant.Variant {
	v := im.Variant(s.Name)
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
