// Package nttfield holds what the NTT kernel families (kernels/mlkem and
// kernels/mldsa) share: polynomial inputs for tests and sweeps (those of
// internal/polyvec, which the lab's tests use too), their verification,
// and a field's Set of three kernelset slots (NTT, InvNTT, MulNTT).
// Production registers and chooses among a family's production table (the
// variants the compiled dispatch table can select, NewSet); the lab adds
// the rest of the lab table and chooses again among all (RegisterLab).
//
// A polynomial is a *[256]E with E int16 (ML-KEM, q = 3329) or int32
// (ML-DSA, q = 8380417). Every variant's contract is the same: inputs
// canonical in [0, q), outputs canonical in [0, q) in the standard's
// coefficient order.
package nttfield

import "github.com/tunelab/tunelab/internal/polyvec"

// The polynomials and their inputs are internal/polyvec's; nttfield names
// them for the registrations here and the families' code.

// N is the number of coefficients of every polynomial.
const N = polyvec.N

// Elem is a coefficient type: int16 for ML-KEM, int32 for ML-DSA.
type Elem = polyvec.Elem

// Poly is a polynomial of either field.
type Poly[E Elem] = polyvec.Poly[E]

// A Rand is a small deterministic generator (polyvec.Rand).
type Rand = polyvec.Rand

// An Edge is a named boundary input (polyvec.Edge).
type Edge = polyvec.Edge

// Edges are the boundary inputs every variant is checked on
// (polyvec.Edges): an array, as there.
var Edges = polyvec.Edges

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return polyvec.NewRand(seed) }

// Fill sets p to uniformly random canonical coefficients in [0, q).
func Fill[E Elem](r *Rand, q E, p *Poly[E]) { polyvec.Fill(r, q, p) }

// SetEdge sets p to the boundary input e.
func SetEdge[E Elem](e Edge, q E, p *Poly[E]) { polyvec.SetEdge(e, q, p) }

// FirstDiff returns the first index where a and b differ, or -1.
func FirstDiff[E Elem](a, b *Poly[E]) int { return polyvec.FirstDiff(a, b) }
