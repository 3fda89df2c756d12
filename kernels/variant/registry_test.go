package variant

import (
	"errors"
	"testing"
)

func TestMatchName(t *testing.T) {
	name := "isa=avx512vl/rot=prol/chi=ternlog/align=64"
	cases := []struct {
		pattern string
		want    bool
	}{
		{"", true},
		{"*", true},
		{name, true},
		{"isa=avx512vl", true},
		{"isa=avx512*", true},
		{"isa=avx2", false},
		{"rot=prol/align=64", true},
		{"rot=prol/align=32", false},
		{"chi=*", true},
	}
	for _, c := range cases {
		if got := MatchName(c.pattern, name); got != c.want {
			t.Errorf("MatchName(%q, %q) = %v, want %v", c.pattern, name, got, c.want)
		}
	}
}

func TestKnobs(t *testing.T) {
	v := &Variant{Name: "isa=avx2/unroll=4"}
	if got := v.Knob("unroll"); got != "4" {
		t.Errorf("Knob(unroll) = %q, want 4", got)
	}
	if got := v.Knob("align"); got != "" {
		t.Errorf("Knob(align) = %q, want empty", got)
	}
	if len(Knobs(v.Name)) != 2 {
		t.Errorf("Knobs(%q) = %v, want 2 knobs", v.Name, Knobs(v.Name))
	}
}

func TestRegistryRejectsDuplicates(t *testing.T) {
	k := fresh("test.dup")
	RegisterKernel(Kernel{Name: k, Family: "test", Bench: "TestDup"})
	Register(Variant{Kernel: k, Name: GenericName})
	defer func() {
		if recover() == nil {
			t.Error("registering a duplicate variant did not panic")
		}
	}()
	Register(Variant{Kernel: k, Name: GenericName})
}

// TestTierWidth checks the tier ranks of feature sets.
func TestTierWidth(t *testing.T) {
	for _, c := range []struct {
		features []string
		want     int
	}{
		{nil, 0},
		{[]string{"bmi2", "adx"}, 0},
		{[]string{"aes"}, 128},
		{[]string{"sse41", "pclmulqdq"}, 128},
		{[]string{"avx2"}, 256},
		{[]string{"aes", "avx", "avx2", "vaes"}, 256},
		{[]string{"avx2", "avx512f", "avx512vl"}, 512},
		{[]string{"avx512ifma"}, 512},
	} {
		if got := TierWidth(c.features); got != c.want {
			t.Errorf("TierWidth(%v) = %d, want %d", c.features, got, c.want)
		}
	}
}

func TestValidSize(t *testing.T) {
	free := &Kernel{Name: "t"}
	if err := free.ValidSize(17); err != nil {
		t.Errorf("kernel without SizeCheck rejects 17: %v", err)
	}
	blocks := &Kernel{Name: "t", SizeCheck: func(n int) error {
		if n%16 != 0 {
			return errors.New("not whole blocks")
		}
		return nil
	}}
	if blocks.ValidSize(32) != nil || blocks.ValidSize(17) == nil {
		t.Error("SizeCheck not applied")
	}
}
