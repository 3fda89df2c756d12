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
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/compose"
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

// A plan is a kernel's dispatch plan with the variants that run for it:
// fns[i], variant names[i], implements choices[i].
type plan[F any] struct {
	choices []dispatch.Choice
	names   []string
	fns     []F
}

// newPlan returns a plan of choices, the variants yet to be set.
func newPlan[F any](choices []dispatch.Choice) *plan[F] {
	return &plan[F]{choices: choices, names: make([]string, len(choices)), fns: make([]F, len(choices))}
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

// Replan plans dispatch again among the known variants, for a kernel
// whose plan depends on others'.
func (s *Slot[F]) Replan() {
	p := newPlan[F](dispatch.Plan(s.spec.Kernel, variant.Candidates(s.known)))
	for i, c := range p.choices {
		p.names[i], p.fns[i] = s.impl(c.Variant)
		if s.spec.Resolve != nil {
			p.names[i], p.fns[i] = s.spec.Resolve(c, p.names[i], p.fns[i], s.known)
		}
	}
	s.install(p)
}

// impl returns the known variant named name, or the generic code where
// there is none or the host lacks its features.
func (s *Slot[F]) impl(name string) (string, F) {
	if im := variant.Find(s.known, name); im != nil && cpu.Has(im.Features...) {
		return name, im.Fn
	}
	return variant.GenericName, s.spec.Generic
}

// install makes p the plan and its choice at size 0 Fn.
func (s *Slot[F]) install(p *plan[F]) {
	s.plan.Store(p)
	s.Fn = p.fns[dispatch.ForSize(p.choices, 0)]
}

// For returns the function the plan selects for an input of n bytes.
func (s *Slot[F]) For(n int) F {
	p := s.plan.Load()
	return p.fns[dispatch.ForSize(p.choices, n)]
}

// Plan returns the kernel's current dispatch plan.
func (s *Slot[F]) Plan() []dispatch.Choice { return s.plan.Load().choices }

// Selected returns the name of the variant Fn runs.
func (s *Slot[F]) Selected() string {
	p := s.plan.Load()
	return p.names[dispatch.ForSize(p.choices, 0)]
}

// A Class is one size class of a plan: dispatch's choice and the variant
// that runs for it.
type Class[F any] struct {
	dispatch.Choice
	Name string
	Fn   F
}

// Planned returns the current plan, by size class.
func (s *Slot[F]) Planned() []Class[F] {
	p := s.plan.Load()
	classes := make([]Class[F], len(p.choices))
	for i := range p.choices {
		classes[i] = p.class(i)
	}
	return classes
}

// ClassFor returns the size class of the current plan for an input of n
// bytes.
func (s *Slot[F]) ClassFor(n int) Class[F] {
	p := s.plan.Load()
	return p.class(dispatch.ForSize(p.choices, n))
}

// class returns size class i of p.
func (p *plan[F]) class(i int) Class[F] {
	return Class[F]{Choice: p.choices[i], Name: p.names[i], Fn: p.fns[i]}
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

// Use makes the registered variant named name (variant.GenericName: the
// reference; "": no change) the plan for every size and returns a
// function that restores the previous plan. It refuses a variant the
// host cannot run. Use is not safe while the kernel's Fn is read
// concurrently.
func (s *Slot[F]) Use(name string) (restore func(), err error) {
	if name == "" {
		return func() {}, nil
	}
	return s.UsePlan([]dispatch.Choice{{Variant: name}})
}

// UsePlan makes choices, naming registered variants, the plan and
// returns a function that restores the previous one, as Use.
func (s *Slot[F]) UsePlan(choices []dispatch.Choice) (restore func(), err error) {
	p := newPlan[F](choices)
	for i, c := range choices {
		p.names[i], p.fns[i] = c.Variant, s.spec.Generic
		if c.Variant == variant.GenericName {
			continue
		}
		im := variant.Find(s.known, c.Variant)
		if im == nil {
			return nil, fmt.Errorf("%s: no registered variant %s", s.spec.Kernel, c.Variant)
		}
		if !cpu.Has(im.Features...) {
			return nil, fmt.Errorf("%s: variant %s cannot run on this CPU", s.spec.Kernel, c.Variant)
		}
		p.fns[i] = im.Fn
	}
	old := s.plan.Load()
	s.install(p)
	return func() { s.install(old) }, nil
}

// UseAll makes each slot use the variant of the same index in names (as
// Slot.Use) and returns a function that restores them all; on an error it
// restores those it changed.
func UseAll(slots []Tiered, names []string) (restore func(), err error) {
	var undo []func()
	restore = func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}
	for i, s := range slots {
		r, err := s.Use(names[i])
		if err != nil {
			restore()
			return nil, err
		}
		undo = append(undo, r)
	}
	return restore, nil
}

// A Tiered is a Slot of any function type, as TierKnob and UseAll take
// them.
type Tiered interface {
	Kernel() string
	// planAt returns the variant dispatch selects at level and its
	// features.
	planAt(level string, host *cpu.CPU) (name string, features []string)
	Use(name string) (func(), error)
}

// planAt returns the variant dispatch selects for s's kernel at size 0 on
// the host (its own level) or on a synthetic CPU of level.
func (s *Slot[F]) planAt(level string, host *cpu.CPU) (string, []string) {
	on := host
	if host.Level() != level {
		c, err := cpu.LevelCPU(level)
		if err != nil {
			return variant.GenericName, nil
		}
		on = c
	}
	plan := dispatch.Resolve(on, dispatch.Compiled(), "", s.spec.Kernel, variant.Candidates(s.known))
	name := plan.Choices[dispatch.ForSize(plan.Choices, 0)].Variant
	if im := variant.Find(s.known, name); im != nil {
		return name, im.Features
	}
	return variant.GenericName, nil
}

// tiers are the ISA tiers of a TierKnob, by the feature level whose
// dispatch plan names their variants.
var tiers = []struct{ value, level string }{{"avx2", cpu.LevelV3}, {"avx512", cpu.LevelV4}}

// TierKnob returns the whole-operation composition knob key over slots:
// per ISA tier the host can run, every slot's variant dispatch selects at
// that tier (the host's own plan at its own level, the compiled table's
// level default below it), and the generic code of every slot as the
// reference. A tier whose plan is generic for every slot is left out.
func TierKnob(key string, slots ...Tiered) compose.Knob {
	use := func(names []string) func() (func(), error) {
		return func() (func(), error) { return UseAll(slots, names) }
	}
	generics := make([]string, len(slots))
	for i := range generics {
		generics[i] = variant.GenericName
	}
	generic := compose.Choice{Value: "generic", Use: use(generics)}
	kn := compose.Knob{Key: key, Generic: generic, Choices: []compose.Choice{generic}}
	host := cpu.Host()
	for _, t := range tiers {
		if cpu.LevelRank(host.Level()) < cpu.LevelRank(t.level) {
			continue
		}
		names := make([]string, len(slots))
		var features []string
		all := true
		for i, s := range slots {
			name, f := s.planAt(t.level, host)
			names[i], features = name, append(features, f...)
			all = all && name == variant.GenericName
		}
		if !all {
			kn.Choices = append(kn.Choices, compose.Choice{Value: t.value, Features: features, Use: use(names)})
		}
	}
	return kn
}
