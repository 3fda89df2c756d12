package poly1305

import (
	"math/rand/v2"
	"testing"

	"golang.org/x/crypto/poly1305"

	"github.com/tunelab/tunelab/kernels/variant"
)

// The tests see every generated variant, as the lab does.
func init() { RegisterVariants() }

// TestRegisterVariantsOnce checks that a second RegisterVariants changes
// nothing (a second registration of a variant would panic) and that every
// implementation is registered.
func TestRegisterVariantsOnce(t *testing.T) {
	n := len(impls())
	RegisterVariants()
	if len(impls()) != n {
		t.Fatalf("second RegisterVariants: %d implementations, had %d", len(impls()), n)
	}
	for _, im := range impls() {
		if variant.Lookup(kernel, im.Name) == nil {
			t.Errorf("%s: not registered", im.Name)
		}
	}
}

// TestNoAllocs checks that the public API allocates nothing per call with
// each production implementation (and the generic one) as the plan.
func TestNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(51, 52))
	key := randKey(rng)
	for _, im := range runnable(t) {
		if im.Fn.InLab() {
			continue
		}
		withPlan(t, im, func() {
			for _, n := range []int{15, 64, 1000, 16384} {
				m := make([]byte, n)
				fill(rng, m)
				var tag [TagSize]byte
				var out [TagSize]byte
				allocs := map[string]float64{
					"Sum":    testing.AllocsPerRun(20, func() { Sum(&tag, m, key) }),
					"Verify": testing.AllocsPerRun(20, func() { Verify(&tag, m, key) }),
					"MAC": testing.AllocsPerRun(20, func() {
						mac := New(key)
						mac.Write(m[:n/3])
						mac.Write(m[n/3:])
						mac.Sum(out[:0])
					}),
				}
				for f, a := range allocs {
					if a != 0 {
						t.Errorf("%s, %d bytes: %s allocates %v times per call", im.Name, n, f, a)
					}
				}
			}
		})
	}
}

// TestPublicAPIRunsLabVariants runs Sum, Verify and the streaming MAC with
// each runnable lab variant as the plan (as TUNELAB_DISPATCH forces it),
// through the heap copies of sumCopy and blocksCopy.
func TestPublicAPIRunsLabVariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(53, 54))
	for _, im := range runnable(t) {
		if !im.Fn.InLab() {
			continue
		}
		withPlan(t, im, func() {
			for _, n := range []int{0, 17, 64, 300, 1024, 5000} {
				m := make([]byte, n)
				fill(rng, m)
				key := randKey(rng)
				var got, want [16]byte
				Sum(&got, m, key)
				poly1305.Sum(&want, m, key)
				if got != want || !Verify(&want, m, key) {
					t.Errorf("%s, %d bytes: Sum %x, want %x", im.Name, n, got, want)
				}
				mac := New(key)
				mac.Write(m[:n/3])
				mac.Write(m[n/3:])
				if !mac.Verify(want[:]) {
					t.Errorf("%s, %d bytes: MAC (two writes) rejected x/crypto's tag", im.Name, n)
				}
			}
		})
	}
}

// withPlan runs f with im as the plan for every size.
func withPlan(t *testing.T, im impl, f func()) {
	t.Helper()
	restore, err := slot.Use(im.Name)
	if err != nil {
		t.Fatal(err)
	}
	defer restore()
	f()
}
