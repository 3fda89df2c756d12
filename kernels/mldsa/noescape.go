package mldsa

import "unsafe"

// NTT, InvNTT and MulNTT call the variant dispatch selected through a func
// value, so the compiler cannot see that they do not retain their
// arguments and would move every polynomial passed to them to the heap,
// the signing scratch included. They do not retain them (they transform
// in place and return), so the whole operations call them through the
// wrappers below, which hide the pointers from escape analysis as the
// runtime's noescape does: keys' polynomials stay where they are and a
// signature's scratch stays on the stack.

// noescape returns p, hidden from escape analysis: the pointer is read and
// rebuilt through a uintptr with no call in between, so the object cannot
// move meanwhile. Only pass the result to functions that do not retain it.
func noescape(p *poly) *poly {
	bits := *(*uintptr)(unsafe.Pointer(&p))
	return *(**poly)(unsafe.Pointer(&bits))
}

// noescapeT is noescape for any pointer.
func noescapeT[T any](p *T) *T {
	bits := *(*uintptr)(unsafe.Pointer(&p))
	return *(**T)(unsafe.Pointer(&bits))
}

// ntt is NTT on a polynomial that may stay on the stack.
func ntt(w *poly) { NTT(noescape(w)) }

// invNTT is InvNTT on a polynomial that may stay on the stack.
func invNTT(w *poly) { InvNTT(noescape(w)) }

// mulNTT is MulNTT on polynomials that may stay on the stack.
func mulNTT(c, a, b *poly) { MulNTT(noescape(c), noescape(a), noescape(b)) }
