package variant

import (
	"fmt"
	"strings"
	"testing"
)

// TestLabTable checks the offer of a lab table and its retrieval, with
// production's functions (WithProd), and that a missing table or a table
// of another type panics naming the kernel.
func TestLabTable(t *testing.T) {
	k := fresh("varianttest.labtable")
	f := func() int { return 1 }
	OfferLab(k, []Impl[func() int]{{Name: "p", Symbol: "m/k.p"}, {Name: "l", Symbol: "m/lab.l", Fn: f}})
	prod := []Impl[func() int]{{Name: "p", Symbol: "m/k.p", Fn: f}, {Name: "l", Symbol: "m/k.other", Fn: f}}
	got := WithProd(LabTable[func() int](k), prod)
	if len(got) != 2 || got[0].Fn == nil || got[1].Symbol != "m/lab.l" {
		t.Errorf("WithProd(LabTable): %+v, want p with production's function and l as offered", got)
	}
	for _, c := range []struct {
		name string
		get  func()
		want string
	}{
		{"missing", func() { LabTable[func() int]("varianttest.none") }, "no lab table offered for varianttest.none"},
		{"type", func() { LabTable[func() string](k) }, "lab table of " + k},
		{"twice", func() { OfferLab(k, nil) }, k + " offered twice"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), c.want) {
					t.Errorf("%s: recovered %v, want a panic with %q", c.name, r, c.want)
				}
			}()
			c.get()
		}()
	}
}

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
