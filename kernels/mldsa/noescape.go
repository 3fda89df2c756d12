package mldsa

import "github.com/tunelab/tunelab/kernels/internal/escape"

// NTT, InvNTT and MulNTT call the variant dispatch selected through a func
// value, so the compiler cannot see that they do not retain their
// arguments and would move every polynomial passed to them to the heap,
// the signing scratch included. They do not retain them (they transform
// in place and return), so the whole operations call them through the
// wrappers below, which hide the pointers from escape analysis
// (kernels/internal/escape): keys' polynomials stay where they are and a
// signature's scratch stays on the stack.

// ntt is NTT on a polynomial that may stay on the stack.
func ntt(w *poly) { NTT(escape.Hide(w)) }

// invNTT is InvNTT on a polynomial that may stay on the stack.
func invNTT(w *poly) { InvNTT(escape.Hide(w)) }

// mulNTT is MulNTT on polynomials that may stay on the stack.
func mulNTT(c, a, b *poly) { MulNTT(escape.Hide(c), escape.Hide(a), escape.Hide(b)) }
