package leaks

import (
	"math/rand/v2"
	"testing"
)

func TestFixtures(t *testing.T) {
	if !Available() {
		t.Skip("assembly fixtures not built (purego or not amd64)")
	}
	r := rand.New(rand.NewPCG(1, 2))
	var table [TableSize]byte
	for i := range table {
		table[i] = byte(r.Uint32())
	}
	var key [16]byte
	for i := range key {
		key[i] = byte(r.Uint32())
	}
	var want uint64
	for _, b := range key {
		for j := 0; j < 8; j++ {
			want ^= uint64(table[int(b)<<12+j]) << (8 * j)
		}
	}
	if got := LookupTable(&key, &table); got != want {
		t.Errorf("LookupTable = %#x, want %#x", got, want)
	}

	var a, b [256]byte
	for i := range a {
		a[i] = byte(r.Uint32())
	}
	b = a
	for _, f := range []struct {
		name string
		fn   func(a, b *[256]byte) uint64
	}{{"EarlyExit", EarlyExit}, {"CTCompare", CTCompare}} {
		if got := f.fn(&a, &b); got != 1 {
			t.Errorf("%s(equal) = %d, want 1", f.name, got)
		}
		for _, at := range []int{0, 100, 255} {
			c := b
			c[at] ^= 1 << (at % 8)
			if got := f.fn(&a, &c); got != 0 {
				t.Errorf("%s(differing at byte %d) = %d, want 0", f.name, at, got)
			}
		}
	}

	var x, d [8]uint64
	for i := range x {
		x[i], d[i] = r.Uint64(), r.Uint64()>>uint(r.IntN(63))|1
	}
	var sum uint64
	for i := range x {
		sum += (x[i] ^ sum) / d[i]
	}
	if got := SecretDivide(&x, &d); got != sum {
		t.Errorf("SecretDivide = %d, want %d", got, sum)
	}
}
