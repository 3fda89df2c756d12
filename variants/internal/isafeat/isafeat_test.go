package isafeat

import (
	"slices"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/reg"
)

// TestDerive builds functions in avo's global context, as a generator
// does, and checks the derived features and the ceiling errors.
func TestDerive(t *testing.T) {
	build.TEXT("vex", 0, "func()")
	build.VPADDD(reg.Y1, reg.Y2, reg.Y3)
	build.RET()
	build.TEXT("kmask", 0, "func()")
	build.VPADDD(reg.Y1, reg.Y2, reg.Y3)
	build.KMOVW(reg.EBX, reg.K1)
	build.RET()
	build.TEXT("scalar", 0, "func()")
	build.MULXQ(reg.RAX, reg.RBX, reg.RCX)
	build.RET()
	fs, err := Derive()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		isa, fn string
		want    []string
	}{
		{"avx2", "vex", []string{"avx2"}},
		{"avx512", "kmask", []string{"avx2", "avx512f"}},
		{"scalar", "scalar", []string{"bmi2"}},
	} {
		got, err := fs.Features("v", Allowed(c.isa), c.fn)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("features of %s under isa=%s: %v, %v; want %v", c.fn, c.isa, got, err, c.want)
		}
	}
	got, err := fs.Features("v", Allowed("avx2"), "vex", "scalar")
	if err != nil || !slices.Equal(got, []string{"avx2", "bmi2"}) {
		t.Errorf("union of vex and scalar: %v, %v", got, err)
	}
	for _, c := range []struct{ isa, fn, want string }{
		{"avx2", "kmask", "variant isa=avx2/x: function kmask: instruction KMOVW BX, K1 needs avx512f"},
		{"scalar", "vex", "instruction VPADDD Y1, Y2, Y3 needs avx2"},
		{"avx2", "missing", "no generated function missing"},
	} {
		_, err := fs.Features("isa=avx2/x", Allowed(c.isa), c.fn)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s under isa=%s: error %v, want it to contain %q", c.fn, c.isa, err, c.want)
		}
	}
}

// TestAllowed checks the ceilings of each tier's knob names.
func TestAllowed(t *testing.T) {
	for _, c := range []struct {
		isa, feature string
		want         bool
	}{
		{"scalar", "bmi2", true}, {"scalar", "avx", false}, {"amd64", "adx", true},
		{"avx2", "avx2", true}, {"avx2", "vaes", true}, {"avx2", "avx512f", false},
		{"aesni", "aes", true}, {"vaes256", "avx512vl", false},
		{"avx512vl", "avx512bw", true}, {"vaes512", "avx512f", true}, {"avx512ifma", "avx512ifma", true},
	} {
		if got := Allowed(c.isa)(c.feature); got != c.want {
			t.Errorf("Allowed(%q)(%q) = %v, want %v", c.isa, c.feature, got, c.want)
		}
	}
}
