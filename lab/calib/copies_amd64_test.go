//go:build !purego

package calib

import (
	"bytes"
	"debug/elf"
	"os"
	"testing"

	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestCopiesAreByteIdentical checks in the test binary itself that every
// copy=N variant is byte for byte the eps=0 chain at another address, so
// that a time difference between them can only come from placement.
func TestCopiesAreByteIdentical(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		t.Skipf("reading the test binary: %v", err)
	}
	defer f.Close()
	code := func(symbol string) (uint64, []byte) {
		entry, end, err := asmmap.Func(symbol)
		if err != nil {
			t.Fatalf("locating %s: %v", symbol, err)
		}
		for _, sec := range f.Sections {
			if sec.Type == elf.SHT_PROGBITS && sec.Addr <= entry && end <= sec.Addr+sec.Size {
				b := make([]byte, end-entry)
				if _, err := sec.ReadAt(b, int64(entry-sec.Addr)); err != nil {
					t.Fatalf("reading %s: %v", symbol, err)
				}
				return entry, b
			}
		}
		t.Skipf("%s at [%#x, %#x) lies in no section of the test binary (position-independent?)", symbol, entry, end)
		return 0, nil
	}
	base := variant.Lookup(kernelName, "isa=amd64/eps=0/align=64")
	baseAddr, baseCode := code(base.Symbol)
	seen := map[uint64]string{baseAddr: base.Name}
	copies := 0
	for _, v := range variant.Variants(kernelName) {
		if v.Knob("copy") == "" {
			continue
		}
		copies++
		addr, b := code(v.Symbol)
		if !bytes.Equal(b, baseCode) {
			t.Errorf("%s (%s at %#x, %d bytes) differs from %s (%#x, %d bytes)", v.Name, v.Symbol, addr, len(b), base.Name, baseAddr, len(baseCode))
		}
		if other, ok := seen[addr]; ok {
			t.Errorf("%s at %#x, the address of %s", v.Name, addr, other)
		}
		seen[addr] = v.Name
		if addr%64 != 0 {
			t.Errorf("%s at %#x: want a function on its own 64-byte line", v.Name, addr)
		}
	}
	if copies < 2 {
		t.Errorf("%d copy=N variants registered, want at least 2", copies)
	}
}
