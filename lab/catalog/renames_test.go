package catalog

import "testing"

func TestApplyRenames(t *testing.T) {
	rs := []Rename{
		{Kernel: "keccak.x4", From: "rot=shift", To: "rot=shiftor"},
		{From: "unroll=*", To: "ur=*"},
		{Kernel: "poly1305", From: "tail=scalar", To: ""},
		{Kernel: "mlkem.ntt", After: "red", To: "canon=exact"},
		{OldKernel: "aes.enc", NewKernel: "aes128.enc"},
	}
	for _, c := range []struct{ kernel, name, wantKernel, want string }{
		{"keccak.x4", "isa=avx2/rot=shift/unroll=2/align=64", "keccak.x4", "isa=avx2/rot=shiftor/ur=2/align=64"},
		{"keccak.x2", "isa=avx2/rot=shift/unroll=1", "keccak.x2", "isa=avx2/rot=shift/ur=1"},
		{"poly1305", "isa=avx2/tail=scalar/align=none", "poly1305", "isa=avx2/align=none"},
		{"mlkem.ntt", "isa=avx2/red=lazy/align=none", "mlkem.ntt", "isa=avx2/red=lazy/canon=exact/align=none"},
		{"mlkem.ntt", "isa=avx2/red=lazy/canon=min/align=none", "mlkem.ntt", "isa=avx2/red=lazy/canon=min/align=none"},
		{"aes.enc", "isa=aesni", "aes128.enc", "isa=aesni"},
		{"keccak.x4", "isa=avx2/rot=shiftor/ur=2/align=64", "keccak.x4", "isa=avx2/rot=shiftor/ur=2/align=64"},
	} {
		k, n := Apply(rs, c.kernel, c.name)
		if k != c.wantKernel || n != c.want {
			t.Errorf("Apply(%s %s) = %s %s, want %s %s", c.kernel, c.name, k, n, c.wantKernel, c.want)
		}
	}
}

// TestRenamesLeaveTodaysNamesAlone: every rename in effect is
// idempotent on today's catalog (a reader applies them to every file).
func TestRenamesLeaveTodaysNamesAlone(t *testing.T) {
	for _, e := range entries {
		if k, n := Apply(Renames(), e.Kernel, e.Name); k != e.Kernel || n != e.Name {
			t.Errorf("renames change today's %s %s into %s %s", e.Kernel, e.Name, k, n)
		}
	}
}
