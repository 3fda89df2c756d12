package baselines_test

import (
	"testing"

	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/baselines"
)

// TestBaselines verifies the crypto/aes and crypto/cipher CTR baselines
// registered for every AES kernel against aesecb, then runs and checks an
// instance.
func TestBaselines(t *testing.T) {
	for _, k := range []string{"aes128.enc", "aes128.dec", "aes192.enc", "aes192.dec", "aes256.enc", "aes256.dec"} {
		for _, name := range []string{"ext=stdblock", "ext=stdctr"} {
			v := variant.Lookup(k, name)
			if v == nil || !v.External {
				t.Errorf("%s: %s not registered as external", k, name)
				continue
			}
			for _, size := range []int{0, 16, 1024, 4096 + 48} {
				if err := v.Verify(size, uint64(size)); err != nil {
					t.Errorf("%s %s, %d bytes: %v", k, name, size, err)
				}
			}
			in := v.New(256, 9)
			in.Run(3)
			if err := in.Check(); err != nil {
				t.Errorf("%s %s: Check after Run: %v", k, name, err)
			}
		}
	}
}

// TestRegistry checks the registered kernels and their variants: sizes,
// unit, a generic variant, and for generated ones a symbol and loop label.
func TestRegistry(t *testing.T) {
	for _, name := range []string{"aes128.enc", "aes128.dec", "aes192.enc", "aes192.dec", "aes256.enc", "aes256.dec"} {
		k := variant.LookupKernel(name)
		if k == nil || !k.SizeClasses || k.Unit != "B" || len(k.Sizes) != 6 || k.UnitsPerOp(1024) != 1024 {
			t.Fatalf("kernel %s: %+v", name, k)
		}
		if variant.Lookup(name, variant.GenericName) == nil {
			t.Errorf("%s: no generic variant", name)
		}
		for _, v := range variant.Variants(name) {
			if v.IsGeneric() || v.External {
				continue
			}
			entry, end, ferr := asmmap.Func(v.Symbol)
			if v.Symbol == "" || v.LoopLabel != "loop" || len(v.Features) == 0 || ferr != nil || end <= entry {
				t.Errorf("%s %s: symbol %q, loop %q, features %v, code in the binary [%#x, %#x) %v", name, v.Name, v.Symbol, v.LoopLabel, v.Features, entry, end, ferr)
			}
			err := v.Verify(256+48, 7)
			switch runnable := cpu.Has(v.Features...); {
			case runnable && err != nil:
				t.Errorf("%s %s: Verify: %v", name, v.Name, err)
			case !runnable && err == nil:
				t.Errorf("%s %s: Verify succeeded on a host lacking one of %v", name, v.Name, v.Features)
			}
		}
	}
}
