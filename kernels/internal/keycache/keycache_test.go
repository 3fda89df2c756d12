package keycache

import (
	"sync"
	"testing"
)

// TestMatrix checks that only the first use expands into scratch memory,
// that Own expands once, and that a use after Own never is transient.
func TestMatrix(t *testing.T) {
	var m Matrix[int]
	if !m.Transient() {
		t.Fatal("first use not transient")
	}
	if m.Transient() {
		t.Fatal("second use transient")
	}
	expansions := 0
	expand := func(a []int) {
		expansions++
		for i := range a {
			a[i] = i
		}
	}
	for range 3 {
		if a := m.Own(4, expand); len(a) != 4 || a[3] != 3 {
			t.Fatalf("Own = %v", a)
		}
	}
	if expansions != 1 {
		t.Fatalf("%d expansions, want 1", expansions)
	}
	var fresh Matrix[int]
	fresh.Own(1, expand)
	if fresh.Transient() {
		t.Fatal("first use after Own transient")
	}
}

// TestDigest checks that the first Get sets the hash, from the batched
// value or the hash function, and later ones return it unchanged.
func TestDigest(t *testing.T) {
	var h Digest[int]
	if h.Known() {
		t.Fatal("zero Digest known")
	}
	seven := 7
	if got := *h.Get(&seven, func(d *int) { *d = 9 }); got != 7 || !h.Known() {
		t.Fatalf("Get(batched 7) = %d, known %v", got, h.Known())
	}
	if got := *h.Get(nil, func(d *int) { *d = 9 }); got != 7 {
		t.Fatalf("second Get = %d, want 7", got)
	}
	var hashed Digest[int]
	if got := *hashed.Get(nil, func(d *int) { *d = 9 }); got != 9 {
		t.Fatalf("Get(nil) = %d, want 9", got)
	}
}

// TestConcurrentUse checks, under -race, that concurrent uses agree.
func TestConcurrentUse(t *testing.T) {
	var m Matrix[int]
	var h Digest[int]
	var wg sync.WaitGroup
	transient := make([]bool, 8)
	for g := range transient {
		wg.Add(1)
		go func() {
			defer wg.Done()
			transient[g] = m.Transient()
			if a := m.Own(2, func(a []int) { a[1] = 5 }); a[1] != 5 {
				t.Errorf("Own = %v", a)
			}
			v := g
			if got := *h.Get(&v, nil); got < 0 || got >= len(transient) {
				t.Errorf("Get = %d", got)
			}
		}()
	}
	wg.Wait()
	n := 0
	for _, tr := range transient {
		if tr {
			n++
		}
	}
	if n > 1 {
		t.Fatalf("%d transient uses, want at most 1", n)
	}
}
