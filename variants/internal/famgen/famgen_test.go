package famgen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// TestGenerator checks the generator's path relative to the directory of
// the package it generates for, as the tables' headers name it.
func TestGenerator(t *testing.T) {
	for _, c := range []struct {
		f    Family
		want string
	}{
		{Family{Command: "cbd", PkgPath: "github.com/tunelab/tunelab/kernels/internal/polysample"}, "../../../variants/cbd"},
		{Family{Command: "round", PkgPath: "github.com/tunelab/tunelab/kernels/mldsa"}, "../../variants/round"},
	} {
		if got := generator(c.f); got != c.want {
			t.Errorf("generator(%s) = %q, want %q", c.f.PkgPath, got, c.want)
		}
	}
}

// TestBuilder checks the symbols and names of the variants a Builder
// records and the kernels' order, that of their first variants, when a
// family interleaves kernels (as mlkem.mulcache and mlkem.matvec).
func TestBuilder(t *testing.T) {
	cache := Kernel{Name: "x.cache", Prefix: "cache", Var: "asmCache", Type: "func(p *[4]int32)"}
	mv := Kernel{Name: "x.matvec", Prefix: "mv", Var: "asmMatVec", Type: "func(p *[4]int32)", LoopLabel: "loop"}
	b := &Builder{Consts: vecgen.NewConsts("famgentest")}
	for _, s := range ISAs {
		b.Tier(cache, s)
		build.RET()
		b.Unrolls(mv, map[string][]int{s.Name: {1, 2}}, func(*vecgen.ISA, int) { build.RET() })
	}
	if len(b.kernels) != 2 || b.kernels[0].Name != cache.Name || b.kernels[1].Name != mv.Name {
		t.Errorf("kernels %v, want x.cache, x.matvec", b.kernels)
	}
	var got []string
	for _, v := range b.variants {
		got = append(got, fmt.Sprintf("%s %s %s %s", v.Kernel, v.Name, v.Symbol, v.ISA))
	}
	want := []string{
		"x.cache isa=avx2 cache_avx2 avx2",
		"x.matvec isa=avx2/unroll=1 mv_avx2_1 avx2",
		"x.matvec isa=avx2/unroll=2 mv_avx2_2 avx2",
		"x.cache isa=avx512 cache_avx512 avx512",
		"x.matvec isa=avx512/unroll=1 mv_avx512_1 avx512",
		"x.matvec isa=avx512/unroll=2 mv_avx512_2 avx512",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("variants\n%q\nwant\n%q", got, want)
	}
}

// TestPreferMustBeGenerated checks that a kernel's declared default must
// name one of its generated variants.
func TestPreferMustBeGenerated(t *testing.T) {
	k := Kernel{Name: "x.pref", Prefix: "pref", Var: "asmPref", Type: "func(p *[4]int32)", Prefer: []string{"isa=avx2/unroll=3"}}
	vs := []Variant{{Kernel: "x.pref", Name: "isa=avx2/unroll=1", Symbol: "pref_avx2_1", ISA: "avx2"}}
	dir := t.TempDir()
	err := WriteTables(Family{Command: "pref", PkgPath: "github.com/tunelab/tunelab/kernels/pref"}, dir+"/lab.go", dir+"/prod.go", []Kernel{k}, vs)
	if err == nil || !strings.Contains(err.Error(), `x.pref: preferred variant "isa=avx2/unroll=3" is not generated`) {
		t.Errorf("WriteTables with a preference no variant has: error %v", err)
	}
}
