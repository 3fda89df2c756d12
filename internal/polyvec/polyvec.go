// Package polyvec holds the polynomials of the NTT kernel families
// (kernels/mlkem and kernels/mldsa) and the deterministic inputs and
// comparisons that their registrations (kernels/internal/nttfield), sweeps
// and tests (lab/nttfieldtest) share: random canonical polynomials from a
// seed, the boundary inputs every variant is checked on, and the first
// differing coefficient of two results. It knows no field: the modulus q
// is a parameter (zworst.go only records, for ML-KEM's and ML-DSA's q,
// the worst-case inputs worst.go derives from q alone).
//
// A polynomial is a *[256]E with E int16 (ML-KEM, q = 3329) or int32
// (ML-DSA, q = 8380417), its coefficients canonical in [0, q) in the
// standard's order.
package polyvec

// N is the number of coefficients of every polynomial.
const N = 256

// Elem is a coefficient type: int16 for ML-KEM, int32 for ML-DSA.
type Elem interface{ ~int16 | ~int32 }

// Poly is a polynomial of either field.
type Poly[E Elem] = [N]E

// A Rand is a small deterministic generator (splitmix64); tests and sweeps
// derive reproducible inputs from a seed with it.
type Rand struct{ s uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) *Rand { return &Rand{s: seed} }

// Uint64 returns the next pseudo-random value.
func (r *Rand) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Fill sets p to uniformly random canonical coefficients in [0, q).
func Fill[E Elem](r *Rand, q E, p *Poly[E]) {
	for i := range p {
		p[i] = E(r.Uint64() % uint64(q))
	}
}

// Edge is a named boundary input.
type Edge struct {
	Name string
	// Coef returns coefficient i of the input for modulus q.
	Coef func(i int, q int64) int64
}

// Edges are the boundary inputs every variant is checked on. An array:
// its length is a constant, so a verifier's index modulo len(Edges) is a
// multiplication, not a division (lab/ct disassembles the operations'
// packages, verifiers included, for divisions).
var Edges = [...]Edge{
	{"all-zero", func(int, int64) int64 { return 0 }},
	{"all-one", func(int, int64) int64 { return 1 }},
	{"all-q-1", func(_ int, q int64) int64 { return q - 1 }},
	{"alternating-0-q-1", func(i int, q int64) int64 { return int64(i&1) * (q - 1) }},
	{"alternating-q-1-0", func(i int, q int64) int64 { return int64(1-i&1) * (q - 1) }},
	{"blocks-q-1-0", func(i int, q int64) int64 { return int64((i>>4)&1) * (q - 1) }},
	{"half-q", func(_ int, q int64) int64 { return q / 2 }},
	{"delta-0", func(i int, q int64) int64 { return b2i(i == 0) }},
	{"delta-255", func(i int, q int64) int64 { return b2i(i == 255) * (q - 1) }},
	// Derived in worst.go: the lazy NTT's greatest lane driven up, its
	// least driven down.
	{"worst-ntt-max", worstMax},
	{"worst-ntt-min", worstMin},
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// SetEdge sets p to the boundary input e.
func SetEdge[E Elem](e Edge, q E, p *Poly[E]) {
	for i := range p {
		p[i] = E(e.Coef(i, int64(q)))
	}
}

// FirstDiff returns the first index where a and b differ, or -1.
func FirstDiff[E Elem](a, b *Poly[E]) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}
