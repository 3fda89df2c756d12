package impltable

import (
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
