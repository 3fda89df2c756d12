//go:build linux

package keccak

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"golang.org/x/sys/unix"
)

// TestAbsorbGuardPages places messages right after and right before an
// inaccessible page: no absorb variant may touch a byte outside the full
// blocks of its message (the zmm-row variants' masked loads reach past
// the last lane only in masked-off qwords).
func TestAbsorbGuardPages(t *testing.T) {
	page := unix.Getpagesize()
	mem, err := unix.Mmap(-1, 0, 3*page, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer unix.Munmap(mem)
	for _, guard := range [][]byte{mem[:page], mem[2*page:]} {
		if err := unix.Mprotect(guard, unix.PROT_NONE); err != nil {
			t.Skipf("mprotect: %v", err)
		}
	}
	body := mem[page : 2*page]
	r := rand.New(rand.NewPCG(10, 136))
	copy(body, randomBytes(r, page))
	forEachAbsorber(t, true, func(t *testing.T, m *absorber) {
		for _, rate := range testRates {
			for _, n := range []int{rate, 2 * rate, 3*rate + 5} {
				full := n - n%rate
				checkAbsorbAt(t, m, body[page-full:], rate, "full blocks ending at a guard page", r)
				checkAbsorbAt(t, m, body[page-n:], rate, "message ending at a guard page", r)
				checkAbsorbAt(t, m, body[:n], rate, "message after a guard page", r)
			}
		}
	})
}

// checkAbsorbAt absorbs data with m and with the generic loop from a
// random state and fails on a difference.
func checkAbsorbAt(t *testing.T, m *absorber, data []byte, rate int, where string, r *rand.Rand) {
	t.Helper()
	got := randomState(r)
	want := got
	m.Fn(&got, data, rate)
	absorbGeneric(&want, data, rate)
	if err := compareLanes(m.Name, fmt.Sprintf("%d bytes at rate %d, %s", len(data), rate, where), &got, &want); err != nil {
		t.Fatal(err)
	}
}
