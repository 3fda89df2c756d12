package kernelset

import (
	"fmt"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A plan is a kernel's dispatch plan with the variants that run for it:
// fns[i], variant names[i], implements choices[i]; fn0 is the choice at
// size 0.
type plan[F any] struct {
	choices []dispatch.Choice
	names   []string
	fns     []F
	fn0     F
}

// newPlan returns a plan of choices, the variants yet to be set.
func newPlan[F any](choices []dispatch.Choice) *plan[F] {
	return &plan[F]{choices: choices, names: make([]string, len(choices)), fns: make([]F, len(choices))}
}

// current returns the plan, making it at the first call.
func (s *Slot[F]) current() *plan[F] {
	if p := s.planned.Load(); p != nil {
		return p
	}
	return s.planFirst()
}

// planFirst makes the plan, once, where none is installed yet.
func (s *Slot[F]) planFirst() *plan[F] {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p := s.planned.Load(); p != nil {
		return p
	}
	s.replan()
	return s.planned.Load()
}

// Replan plans dispatch again among the known variants, for a kernel
// whose plan depends on others'.
func (s *Slot[F]) Replan() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replan()
}

// replan is Replan with s.mu held.
func (s *Slot[F]) replan() {
	known := s.knownLocked()
	p := newPlan[F](dispatch.Plan(s.Name, variant.Candidates(known)))
	for i, c := range p.choices {
		p.names[i], p.fns[i] = s.impl(known, c.Variant)
		if s.Resolve != nil {
			p.names[i], p.fns[i] = s.Resolve(c, p.names[i], p.fns[i], known)
		}
	}
	s.install(p)
	if s.AfterPlan != nil {
		s.AfterPlan()
	}
}

// impl returns the variant of known named name, or the generic code where
// there is none or the host lacks its features.
func (s *Slot[F]) impl(known []variant.Impl[F], name string) (string, F) {
	if im := variant.Find(known, name); im != nil && cpu.Has(im.Features...) {
		return name, im.Fn
	}
	return variant.GenericName, s.Generic
}

// install makes p the plan.
func (s *Slot[F]) install(p *plan[F]) {
	if p != nil {
		p.fn0 = p.fns[dispatch.ForSize(p.choices, 0)]
	}
	s.planned.Store(p)
}

// Fn returns the function the plan selects at size 0 (for a kernel of
// fixed-size input: the one that runs).
func (s *Slot[F]) Fn() F {
	if p := s.planned.Load(); p != nil {
		return p.fn0
	}
	return s.planFirst().fn0
}

// Ready returns the function the plan selects at size 0 and true once
// the kernel is planned, false before: a hot call site calls it (it is
// inlined, one atomic load) and Fn only when it returns false.
func (s *Slot[F]) Ready() (F, bool) {
	if p := s.planned.Load(); p != nil {
		return p.fn0, true
	}
	var none F
	return none, false
}

// For returns the function the plan selects for an input of n bytes.
func (s *Slot[F]) For(n int) F {
	p := s.current()
	return p.fns[dispatch.ForSize(p.choices, n)]
}

// Plan returns the kernel's current dispatch plan.
func (s *Slot[F]) Plan() []dispatch.Choice { return s.current().choices }

// Selected returns the name of the variant Fn runs.
func (s *Slot[F]) Selected() string {
	p := s.current()
	return p.names[dispatch.ForSize(p.choices, 0)]
}

// Features returns the CPU features of the known variant named name (nil
// for the generic code or an unknown name): production knows its table's
// variants without the registry.
func (s *Slot[F]) Features(name string) []string {
	if im := variant.Find(s.Known(), name); im != nil {
		return im.Features
	}
	return nil
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
	p := s.current()
	classes := make([]Class[F], len(p.choices))
	for i := range p.choices {
		classes[i] = p.class(i)
	}
	return classes
}

// ClassFor returns the size class of the current plan for an input of n
// bytes.
func (s *Slot[F]) ClassFor(n int) Class[F] {
	p := s.current()
	return p.class(dispatch.ForSize(p.choices, n))
}

// class returns size class i of p.
func (p *plan[F]) class(i int) Class[F] {
	return Class[F]{Choice: p.choices[i], Name: p.names[i], Fn: p.fns[i]}
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
	old := s.current()
	known := s.Known()
	p := newPlan[F](choices)
	for i, c := range choices {
		p.names[i], p.fns[i] = c.Variant, s.Generic
		if c.Variant == variant.GenericName {
			continue
		}
		im := variant.Find(known, c.Variant)
		if im == nil {
			return nil, fmt.Errorf("%s: no registered variant %s", s.Name, c.Variant)
		}
		if !cpu.Has(im.Features...) {
			return nil, fmt.Errorf("%s: variant %s cannot run on this CPU", s.Name, c.Variant)
		}
		p.fns[i] = im.Fn
	}
	s.install(p)
	return func() { s.install(old) }, nil
}

// Swap makes fn run for every size, under the name "swapped", and
// returns a function that restores the previous plan: for tests that
// check that a fault in a dispatched kernel is caught.
func (s *Slot[F]) Swap(fn F) (restore func()) {
	old := s.current()
	p := newPlan[F]([]dispatch.Choice{{Variant: "swapped"}})
	p.names[0], p.fns[0] = "swapped", fn
	s.install(p)
	return func() { s.install(old) }
}
