package align

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/all"
)

func TestBaseName(t *testing.T) {
	for in, want := range map[string]string{
		"isa=avx2/align=64+8/unroll=2": "isa=avx2/unroll=2",
		"isa=avx2/unroll=2/align=none": "isa=avx2/unroll=2",
		"isa=generic":                  "isa=generic",
	} {
		if got := BaseName(in); got != want {
			t.Errorf("BaseName(%q) = %q, want %q", in, got, want)
		}
	}
}

// sweepKernel returns a registered kernel with an offset sweep and its
// default base on this host, or skips when there is none or the host runs
// none of its bases.
func sweepKernel(t *testing.T) (kernel, base string) {
	t.Helper()
	for _, k := range []string{"keccak.x4", "keccak.x1"} {
		if len(sweepBases(k)) == 0 {
			continue
		}
		b, err := DefaultBase(k, 0)
		var ue *UnrunnableError
		if errors.As(err, &ue) {
			t.Skipf("host runs no offset-sweep base: %v", err)
		}
		if err != nil {
			t.Fatal(err)
		}
		return k, b
	}
	t.Skip("no offset-sweep variants registered in this build")
	return "", ""
}

func TestNewSetDefault(t *testing.T) {
	k, _ := sweepKernel(t)
	s, err := NewSet(k, "", sweep16, 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := 16 + hasNone(k, s.Base); len(s.Arms) != want {
		t.Fatalf("%s %s: %d arms, want 16 offsets (+ align=none if it exists): %d", k, s.Base, len(s.Arms), want)
	}
	for i, a := range s.Arms {
		wantOff := -1
		if i < 16 {
			wantOff = sweep16[i]
		}
		if a.Offset != wantOff || BaseName(a.Variant.Name) != s.Base || a.Variant.Knob("align") != a.Align {
			t.Errorf("%s arm %d: offset %d align %s variant %s; want offset %d of base %s", k, i, a.Offset, a.Align, a.Variant.Name, wantOff, s.Base)
		}
		if !a.Matches() {
			t.Errorf("%s %s: requested offset %d, achieved %+v", k, a.Variant.Name, a.Offset, a.Place)
		}
	}
}

func TestNewSetByFullNameAddsOffsetZero(t *testing.T) {
	k, base := sweepKernel(t)
	s, err := NewSet(k, base+"/align=64+8", []int{8}, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "64 64+8"
	if hasNone(k, base) == 1 {
		want += " none"
	}
	if got := strings.Join(armLabels(s), " "); s.Base != base || got != want {
		t.Errorf("NewSet(%s, offsets 8) = base %s, arms %s; want %s of %s", k, s.Base, got, want, base)
	}
}

// hasNone returns 1 if base has an align=none sibling, else 0.
func hasNone(kernel, base string) int {
	if siblings(kernel, base)["none"] != nil {
		return 1
	}
	return 0
}

func armLabels(s *Set) []string {
	var out []string
	for _, a := range s.Arms {
		out = append(out, a.Align)
	}
	return out
}

func TestNewSetErrors(t *testing.T) {
	k, _ := sweepKernel(t)
	for _, c := range []struct {
		kernel, name string
		offsets      []int
		wantIn       string
	}{
		{"no.such", "", []int{0}, `unknown kernel "no.such"`},
		{k, "", []int{0, 1, 3}, "no variant for offset(s) 1,3; available offsets: 0,4,8,"},
		{k, "isa=nothing", []int{0}, "offset-sweep bases: " + sweepBases(k)[0]},
		{"shake128.many", "", []int{0}, "no offset-sweep"},
	} {
		_, err := NewSet(c.kernel, c.name, c.offsets, 0)
		var re *RequestError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.wantIn) {
			t.Errorf("NewSet(%s, %q, %v) = %v; want a RequestError containing %q", c.kernel, c.name, c.offsets, err, c.wantIn)
		}
	}
}

func TestDefaultSize(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		want  int
	}{
		{nil, 0},
		{[]int{16, 64, 256, 1024, 16384}, 1024},
		{[]int{4096, 2048}, 2048},
		{[]int{64, 512}, 512},
	} {
		if got := DefaultSize(&variant.Kernel{Sizes: c.sizes}); got != c.want {
			t.Errorf("DefaultSize(%v) = %d, want %d", c.sizes, got, c.want)
		}
	}
}

func TestStaleSourcesWarns(t *testing.T) {
	dir := t.TempDir()
	src := dir + "/gen_amd64.s"
	if err := os.WriteFile(src, []byte("// generated\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	future := time.Now().Add(time.Hour)
	if err := os.Chtimes(src, future, future); err != nil {
		t.Fatal(err)
	}
	arms := []*Arm{{Place: Placement{File: src}}, {Place: Placement{File: src}}, {Place: Placement{Err: "not located"}}}
	w := staleSources(arms)
	if len(w) != 1 || !strings.Contains(w[0], src) || !strings.Contains(w[0], "rebuild") {
		t.Errorf("staleSources = %q, want one warning naming %s", w, src)
	}
	past := time.Unix(0, 0)
	if err := os.Chtimes(src, past, past); err != nil {
		t.Fatal(err)
	}
	if w := staleSources(arms); len(w) != 0 {
		t.Errorf("staleSources of an old file = %q, want none", w)
	}
}
