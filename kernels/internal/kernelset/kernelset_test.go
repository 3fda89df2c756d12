package kernelset

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/variant"
)

// inc is the test kernel's function type: it returns x + 1.
type inc = func(x int) int

// testProd is the production side of a kernel whose variants must return
// x + 1 for every x.
func testProd(kernel string) *Slot[inc] {
	return &Slot[inc]{Name: kernel, Generic: func(x int) int { return x + 1 }}
}

// testSpec describes the kernel of testProd, of sized inputs, for the lab.
func testSpec(kernel string) Spec[inc] {
	return Spec[inc]{
		Family: "kernelset", Bench: "KernelsetTest", Unit: "op", Doc: "x + 1",
		Sizes: []int{16, 64}, SizeClasses: true,
		Instance: func(name string, fn inc, size int, seed uint64) variant.Instance {
			return &testInstance{name: name, fn: fn, x: int(seed) + size}
		},
		VerifyAt: func(name string, _ []string, fn inc, size int, seed uint64) error {
			if x := int(seed) + size; fn(x) != x+1 {
				return &variant.Mismatch{Kernel: kernel, Variant: name, Input: fmt.Sprint(x),
					Got: fmt.Sprint(fn(x)), Want: fmt.Sprint(x + 1)}
			}
			return nil
		},
	}
}

type testInstance struct {
	name string
	fn   inc
	x    int
}

func (in *testInstance) Run(n int) {
	for range n {
		in.x = in.fn(in.x) - 1
	}
}

func (in *testInstance) Check() error {
	if got := in.fn(in.x); got != in.x+1 {
		return fmt.Errorf("%s: %d, want %d", in.name, got, in.x+1)
	}
	return nil
}

func impl(name string, fn inc) variant.Impl[inc] { return variant.Impl[inc]{Name: name, Fn: fn} }

// runs counts the runs of each test that registers a kernel: the
// registry is global to the test binary, so when go test -count runs a
// test again it registers a kernel of a fresh name (name, name.2, ...).
var runs = map[string]int{}

// fresh returns the kernel name for this run of the test registering name.
func fresh(name string) string {
	runs[name]++
	if n := runs[name]; n > 1 {
		return fmt.Sprintf("%s.%d", name, n)
	}
	return name
}

// TestSlot checks registration (production, then the lab table once, in
// its order), the registry records' Verify, forcing a plan by size class
// and restoring it, and refusing unknown variants.
func TestSlot(t *testing.T) {
	k := fresh("kernelset.test")
	good := func(x int) int { return x + 1 }
	bad := func(x int) int { return x + 2 }
	s := testProd(k)
	s.Table = []variant.Impl[inc]{impl("a", good)}
	if s.Fn()(1) != 2 {
		t.Fatalf("production plan runs a wrong function")
	}
	if got := names(variant.Variants(k)); len(got) != 0 || variant.LookupKernel(k) != nil {
		t.Fatalf("registered at the first call: %q, want nothing (production registers nothing)", got)
	}
	s.AddLab(testSpec(k), []variant.Impl[inc]{impl("bad", bad), impl("a", good)})
	s.AddLab(testSpec(k), []variant.Impl[inc]{impl("c", good)})
	if got := knownNames(s); !slices.Equal(got, []string{"bad", "a"}) {
		t.Errorf("known after AddLab: %q, want the lab table's order, and a second AddLab ignored", got)
	}
	if got := names(variant.Variants(k)); !slices.Equal(got, []string{"a", "bad", variant.GenericName}) {
		t.Errorf("registered after AddLab: %q", got)
	}
	for _, name := range []string{variant.GenericName, "a"} {
		v := variant.Lookup(k, name)
		if err := v.Verify(16, 3); err != nil {
			t.Errorf("%s: Verify: %v", name, err)
		}
		in := v.New(64, 5)
		in.Run(3)
		if err := in.Check(); err != nil {
			t.Errorf("%s: instance: %v", name, err)
		}
	}
	if err := variant.Lookup(k, "bad").Verify(16, 3); err == nil {
		t.Error("bad: Verify passed a variant returning x + 2")
	}
	checkUsePlan(t, s)
}

// checkUsePlan forces a two-class plan on s and checks For, Selected,
// Planned and the restore function.
func checkUsePlan(t *testing.T, s *Slot[inc]) {
	t.Helper()
	before := s.Planned()
	restore, err := s.UsePlan([]dispatch.Choice{{MaxSize: 16, Variant: "bad"}, {Variant: variant.GenericName}})
	if err != nil {
		t.Fatal(err)
	}
	if s.For(16)(0) != 2 || s.For(17)(0) != 1 || s.Fn()(0) != 2 || s.Selected() != "bad" {
		t.Errorf("forced plan: For(16)(0) = %d, For(17)(0) = %d, Fn(0) = %d, Selected %q", s.For(16)(0), s.For(17)(0), s.Fn()(0), s.Selected())
	}
	if c := s.ClassFor(100); c.Name != variant.GenericName {
		t.Errorf("ClassFor(100) = %+v, want the generic class", c)
	}
	restore()
	if got := s.Planned(); len(got) != len(before) || got[0].Name != before[0].Name {
		t.Errorf("restored plan %+v, want %+v", got, before)
	}
	if _, err := s.Use("nope"); err == nil {
		t.Error("Use accepted an unregistered variant")
	}
	if r, err := s.Use(""); err != nil || s.Selected() != before[0].Name {
		t.Errorf("Use(\"\") changed the plan or failed: %v", err)
	} else {
		r()
	}
}

// TestResolve checks that Resolve decides what each class runs.
func TestResolve(t *testing.T) {
	spec := testProd("kernelset.resolve")
	spec.Resolve = func(c dispatch.Choice, name string, fn inc, known []variant.Impl[inc]) (string, inc) {
		if im := variant.Find(known, "b"); im != nil {
			return im.Name, im.Fn
		}
		return name, fn
	}
	s := spec
	s.Table = []variant.Impl[inc]{impl("b", func(x int) int { return x + 1 })}
	for _, c := range s.Planned() {
		if c.Name != "b" {
			t.Errorf("class %+v: runs %s, want b (Resolve)", c.Choice, c.Name)
		}
	}
	if s.Selected() != "b" {
		t.Errorf("Selected %q, want b", s.Selected())
	}
}

func names(vs []*variant.Variant) []string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Name)
	}
	slices.Sort(out)
	return out
}

func knownNames(s *Slot[inc]) []string {
	var out []string
	for _, im := range s.Known() {
		out = append(out, im.Name)
	}
	return out
}

func TestDiff(t *testing.T) {
	if err := Diff("k", "v", "in", []int16{1, 2, 3}, []int16{1, 2, 3}); err != nil {
		t.Fatalf("Diff of equal slices: %v", err)
	}
	err := Diff("k", "v", "in", []int32{1, 5, 7}, []int32{1, 2, 3})
	m, ok := err.(*variant.Mismatch)
	if !ok {
		t.Fatalf("Diff = %v, want a *variant.Mismatch", err)
	}
	want := variant.Mismatch{Kernel: "k", Variant: "v", Input: "in", Index: 1, Got: "5", Want: "2"}
	if *m != want {
		t.Fatalf("Diff = %+v, want %+v", *m, want)
	}
}

// TestAddLabResolvesProductionRows checks that a lab-table row without a
// function (one production links, listed by a generated lab package)
// takes production's record, and that one production does not know
// panics, naming the kernel and the variant.
func TestAddLabResolvesProductionRows(t *testing.T) {
	k, kbad := fresh("kernelset.nilrow"), fresh("kernelset.nilrowbad")
	good := func(x int) int { return x + 1 }
	s := testProd(k)
	s.Table = []variant.Impl[inc]{impl("p", good)}
	s.AddLab(testSpec(k), []variant.Impl[inc]{{Name: "p"}, impl("l", good)})
	if p := variant.Find(s.Known(), "p"); p == nil || p.Fn == nil {
		t.Errorf("known after AddLab: %v, want p with production's function", s.Known())
	}
	bad := testProd(kbad)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), kbad+" q") {
			t.Errorf("AddLab of a row without a function production lacks: recovered %v, want a panic naming it", r)
		}
	}()
	bad.AddLab(testSpec(kbad), []variant.Impl[inc]{{Name: "q"}})
}
