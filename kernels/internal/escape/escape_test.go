package escape

import "testing"

// sink is a function value, as the kernels are: calls through it leak
// their arguments unless hidden.
var sink = func(p *[64]byte, b []byte) int { return int(p[0]) + len(b) }

func TestHide(t *testing.T) {
	var a [64]byte
	a[0] = 7
	if got := Hide(&a); got != &a {
		t.Fatalf("Hide(&a) = %p, want %p", got, &a)
	}
	b := a[:10:20]
	h := HideBytes(b)
	if len(h) != 10 || cap(h) != 10 || &h[0] != &a[0] {
		t.Fatalf("HideBytes: len %d cap %d, want 10 10 over the same array", len(h), cap(h))
	}
	if HideBytes(a[:0]) != nil || HideBytes(nil) != nil {
		t.Fatal("HideBytes of an empty slice is not nil")
	}
}

func TestNoAllocs(t *testing.T) {
	n := testing.AllocsPerRun(100, func() {
		var a [64]byte
		var b [32]byte
		if sink(Hide(&a), HideBytes(b[:])) != 32 {
			t.Fatal("wrong result")
		}
	})
	if n != 0 {
		t.Fatalf("%v allocations through hidden pointers, want 0", n)
	}
}
