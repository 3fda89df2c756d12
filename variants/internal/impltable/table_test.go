package impltable

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// TestTable builds functions in avo's global context, as a generator
// does, and checks that Add groups the rows into lists (the given ones
// first, the others in the order of their first rows), derives each row's
// features and checks them against the ceiling.
func TestTable(t *testing.T) {
	first := List{Kernel: "x.one", Var: "implsOne", Type: "func()"}
	second := List{Kernel: "x.two", Var: "implsTwo", Type: "func()"}
	emit("vecA", true)
	emit("vecB", false)
	tab, err := NewTable("example.com/m/kernels/x", "../../variants/x", first)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Pkg != "x" || tab.PkgPath != "example.com/m/kernels/x" || !strings.HasPrefix(tab.Command, "go run ../../variants/x ") {
		t.Errorf("file %q %q %q", tab.Pkg, tab.PkgPath, tab.Command)
	}
	avx2 := isafeat.Allowed("avx2")
	for _, c := range []struct {
		l   List
		sym string
	}{{second, "vecA"}, {first, "vecB"}, {second, "vecB"}} {
		if err := tab.Add(c.l, Row{Name: "isa=avx2/" + c.sym, Symbol: c.sym}, avx2); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	for _, l := range tab.Lists {
		for _, r := range l.Rows {
			got = append(got, fmt.Sprintf("%s %s %v", l.Var, r.Symbol, r.Features))
		}
	}
	want := []string{"implsOne vecB []", "implsTwo vecA [avx2]", "implsTwo vecB []"}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	err = tab.Add(first, Row{Name: "isa=scalar", Symbol: "vecA"}, isafeat.Allowed("scalar"))
	if err == nil || !strings.Contains(err.Error(), "x.one isa=scalar") {
		t.Errorf("a row beyond its ceiling: error %v", err)
	}
}

// emit builds the function name, with an AVX2 instruction where avx2.
func emit(name string, avx2 bool) {
	build.TEXT(name, 0, "func()")
	if avx2 {
		build.VPADDD(reg.Y1, reg.Y2, reg.Y3)
	}
	build.RET()
}

// TestDispatchablePreferred checks that production takes a kernel's
// preferred rows while the compiled dispatch table names nothing of it,
// and only the rows the table names once it does, and that the tables
// mark a preferred row (and no other).
func TestDispatchablePreferred(t *testing.T) {
	rows := []Row{{Name: "isa=avx2/unroll=1", Symbol: "a"}, {Name: "isa=avx2/unroll=2", Symbol: "b", Preferred: true},
		{Name: "isa=avx512/unroll=2", Symbol: "c", Preferred: true, OffsetSweep: true}}
	got := Dispatchable("x.unnamed", rows)
	if len(got) != 1 || got[0].Symbol != "b" {
		t.Errorf("production rows of a kernel the table does not name: %+v, want the preferred one (b; an offset-sweep copy never)", got)
	}
	named := "keccak.x1" // the compiled table names its variants
	if got := Dispatchable(named, []Row{{Name: "isa=nosuch", Symbol: "p", Preferred: true}}); len(got) != 0 {
		t.Errorf("production rows of a kernel the table names: %+v, want none (a preference only stands in for the table)", got)
	}
	f := File{Pkg: "x", PkgPath: "example.com/m/kernels/x"}
	var b bytes.Buffer
	f.writeList(&b, List{Kernel: "x.unnamed", Var: "implsX", Type: "func()"}, rows[:2], "doc", true)
	if strings.Count(b.String(), "Preferred: true") != 1 || !strings.Contains(b.String(), `unroll=2", Features: nil, Symbol: "example.com/m/kernels/x.b", LoopLabel: "", OffsetSweep: false, Preferred: true, Fn: b}`) {
		t.Errorf("production table:\n%s\nwant row b alone marked preferred", b.String())
	}
}
