package nttfieldtest

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/tunelab/tunelab/internal/polyvec"
)

// MulAliasing checks every runnable MulNTT variant with the output
// aliasing either input and with all three the same polynomial (the API
// allows both). It is the body of each family's TestMulAliasing.
func MulAliasing[E polyvec.Elem](t *testing.T, fd Field[E]) {
	rng := polyvec.NewRand(77)
	for _, v := range fd.AsmMulNTT {
		if !runnable(t, v.Name, v.Features) {
			continue
		}
		for range 20 {
			var a, b, want polyvec.Poly[E]
			polyvec.Fill(rng, fd.Q, &a)
			polyvec.Fill(rng, fd.Q, &b)
			fd.MulNTT(&want, &a, &b)
			x, y := a, b
			v.Fn(&x, &x, &y)
			checkSame(t, v.Name, "h aliases f", &x, &want)
			x, y = a, b
			v.Fn(&y, &x, &y)
			checkSame(t, v.Name, "h aliases g", &y, &want)
			fd.MulNTT(&want, &a, &a)
			x = a
			v.Fn(&x, &x, &x)
			checkSame(t, v.Name, "h, f and g the same", &x, &want)
		}
	}
}

// GuardPages runs every runnable variant on polynomials placed right
// after and right before an inaccessible page: no variant may touch a
// byte outside its polynomials (MulNTT variants that load the odd lanes 4
// bytes further on must not do so for the last vector). It is the body of
// each family's TestGuardPages.
func GuardPages[E polyvec.Elem](t *testing.T, fd Field[E]) {
	page := unix.Getpagesize()
	size := int(unsafe.Sizeof(polyvec.Poly[E]{}))
	if 3*size > page {
		t.Skipf("page of %d bytes too small for three polynomials", page)
	}
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
	at := func(off int) *polyvec.Poly[E] { return (*polyvec.Poly[E])(unsafe.Pointer(&mem[off])) }
	// three polynomials after the first guard page, three before the second
	for _, offs := range [][3]int{{page, page + size, page + 2*size}, {2*page - 3*size, 2*page - 2*size, 2*page - size}} {
		h, f, g := at(offs[0]), at(offs[1]), at(offs[2])
		guardedUnaries(t, fd, h, g)
		guardedProducts(t, fd, h, f, g)
	}
}

// guardedUnaries runs every NTT and InvNTT variant in place on the first
// and the last polynomial of a group.
func guardedUnaries[E polyvec.Elem](t *testing.T, fd Field[E], first, last *polyvec.Poly[E]) {
	rng := polyvec.NewRand(78)
	for _, k := range fd.unaries() {
		for _, v := range k.impls {
			if !runnable(t, v.Name, v.Features) {
				continue
			}
			for _, p := range []*polyvec.Poly[E]{first, last} {
				polyvec.Fill(rng, fd.Q, p)
				want := *p
				k.ref(&want)
				v.Fn(p)
				checkSame(t, v.Name, "next to a guard page", p, &want)
			}
		}
	}
}

// guardedProducts runs every MulNTT variant on the group h, f, g and,
// swapped, writing the last polynomial from the first two.
func guardedProducts[E polyvec.Elem](t *testing.T, fd Field[E], h, f, g *polyvec.Poly[E]) {
	rng := polyvec.NewRand(79)
	for _, v := range fd.AsmMulNTT {
		if !runnable(t, v.Name, v.Features) {
			continue
		}
		polyvec.Fill(rng, fd.Q, f)
		polyvec.Fill(rng, fd.Q, g)
		var want polyvec.Poly[E]
		fd.MulNTT(&want, f, g)
		v.Fn(h, f, g)
		checkSame(t, v.Name, "next to a guard page", h, &want)
		// the last polynomial of each group as the output, the first as input
		fd.MulNTT(&want, h, f)
		v.Fn(g, h, f)
		checkSame(t, v.Name, "next to a guard page (swapped)", g, &want)
	}
}

func checkSame[E polyvec.Elem](t *testing.T, name, what string, got, want *polyvec.Poly[E]) {
	t.Helper()
	if i := polyvec.FirstDiff(got, want); i >= 0 {
		t.Errorf("%s, %s: coefficient %d is %d, want %d", name, what, i, got[i], want[i])
	}
}
