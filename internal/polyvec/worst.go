package polyvec

import (
	"math/bits"
	"sync"
)

// The worst-case edge inputs: canonical polynomials whose lanes, in a lazy
// Montgomery NTT, reach (near) the extremes the range analysis
// (variants/internal/bounds, docs/bounds.md) finds tightest. The lazy NTT
// keeps the sums a ± t of its butterflies unreduced between layers, so a
// lane grows by up to q per layer and the ML-KEM variants keep about one
// bit of int16 headroom; an implementation whose reduction schedule is one
// step short fails only near that bound, which random and the other edge
// inputs rarely reach (issue 42). The inputs are derived, not written
// down: the field's roots from q, then a greedy coordinate ascent on the
// model LazyModel below.

//go:generate go run ./genworst -out zworst.go

// worstSet is the derived worst-case inputs of one modulus.
type worstSet struct {
	max, min Poly[int32] // the lane maximum driven up, the minimum down
}

// Derive returns the worst-case inputs of modulus q: the lazy model's
// greatest lane driven up, and its least driven down.
func Derive(q int64) [2]Poly[int32] {
	m := NewLazyModel(q)
	return [2]Poly[int32]{m.Ascend(1), m.Ascend(-1)}
}

// worstFor holds the inputs derived at run time, for a modulus
// worstTables (zworst.go, generated) lacks; it is allocated on first
// use: a package initialiser would link polyvec into production
// programs, which the link tests forbid.
var (
	worstMu  sync.Mutex
	worstFor map[int64]*worstSet
)

// worst returns the worst-case inputs of modulus q.
func worst(q int64) *worstSet {
	for i := range worstTables {
		if worstTables[i].q == q {
			return &worstTables[i].w
		}
	}
	worstMu.Lock()
	defer worstMu.Unlock()
	if w, ok := worstFor[q]; ok {
		return w
	}
	if worstFor == nil {
		worstFor = map[int64]*worstSet{}
	}
	d := Derive(q)
	w := &worstSet{max: d[0], min: d[1]}
	worstFor[q] = w
	return w
}

// worstMax and worstMin are the Coef functions of the worst-case edges.
func worstMax(i int, q int64) int64 { return int64(worst(q).max[i]) }
func worstMin(i int, q int64) int64 { return int64(worst(q).min[i]) }

// A LazyModel is the lazy NTT of one modulus q, of the structure of the
// FIPS 203/204 NTTs (Cooley–Tukey, zetas in bit-reversed order): each
// butterfly's product is a signed Montgomery multiplication by ζ·R mod q
// (centered in [−(q−1)/2, (q−1)/2], as variants/ntt's constants; R = 2^16
// for a q below 2^15, else 2^32), in (−q, q), and its sum and difference
// are not reduced. The root is the least element of
// multiplicative order 2^(Layers+1), Layers the most that 2^(v+1) | q−1
// allows up to 8 (ML-KEM: 7 layers, ζ = 17; ML-DSA: 8, ζ = 1753, the
// standards' roots).
type LazyModel struct {
	Q, R   int64 // R is log2 of the Montgomery radix
	Layers int
	zr     []int64 // zr[k] = ζ^BitRev(k)·2^R mod q, centered
	qinv   int64   // q⁻¹ mod 2^R
}

// NewLazyModel returns the lazy NTT model of the odd prime q.
func NewLazyModel(q int64) *LazyModel {
	v := bits.TrailingZeros64(uint64(q - 1))
	layers := min(v-1, 8)
	m := &LazyModel{Q: q, R: 32, Layers: layers}
	if q < 1<<15 {
		m.R = 16
	}
	root := leastOfOrder(q, int64(1)<<(layers+1))
	m.zr = make([]int64, 1<<layers)
	for k := range m.zr {
		z := powMod(root, int64(bits.Reverse64(uint64(k))>>(64-layers)), q)
		if m.zr[k] = z * powMod(2, m.R, q) % q; m.zr[k] > q/2 {
			m.zr[k] -= q // centered, as the generator's constants
		}
	}
	m.qinv = 1
	for range 6 { // Newton: each step doubles the correct low bits
		m.qinv *= 2 - q*m.qinv
	}
	m.qinv &= 1<<m.R - 1
	return m
}

// mont returns a·b·2^−R mod q in (−q, q), as VPMULLW/VPMULHW (R = 16) or
// VPMULDQ (R = 32) compute it for |a·b| < q·2^(R−1).
func (m *LazyModel) mont(a, b int64) int64 {
	p := a * b
	mask := uint64(1)<<m.R - 1
	u := int64(uint64(p) * uint64(m.qinv) & mask) // wraps: only R low bits count
	if u >= 1<<(m.R-1) {
		u -= 1 << m.R
	}
	return (p - u*m.Q) >> m.R
}

// Run transforms in through the lazy NTT and returns its output lanes and
// the least and greatest lane value of every layer.
func (m *LazyModel) Run(in *Poly[int32]) (out [N]int64, lo, hi int64) {
	for i, c := range in {
		out[i] = int64(c)
	}
	lo, hi = minMax(out[:])
	k := 1
	for n := N / 2; n >= N>>m.Layers; n /= 2 {
		for start := 0; start < N; start += 2 * n {
			z := m.zr[k]
			k++
			for j := start; j < start+n; j++ {
				t := m.mont(out[j+n], z)
				out[j+n] = out[j] - t
				out[j] += t
			}
		}
		l, h := minMax(out[:])
		lo, hi = min(lo, l), max(hi, h)
	}
	return out, lo, hi
}

// Ascend returns a canonical input that drives the greatest lane of Run
// up (dir 1) or the least down (dir −1): greedy coordinate ascent from
// the all-zero input, each coordinate in turn set to the best of a
// fixed grid of values over [0, q−1], two passes.
func (m *LazyModel) Ascend(dir int64) Poly[int32] {
	var p Poly[int32]
	score := func() int64 {
		_, lo, hi := m.Run(&p)
		if dir > 0 {
			return hi
		}
		return -lo
	}
	best := score()
	var grid []int32
	for c := int64(0); c < m.Q-1; c += m.Q/32 + 1 {
		grid = append(grid, int32(c))
	}
	grid = append(grid, int32(m.Q-1))
	for range 2 {
		for i := range p {
			keep := p[i]
			for _, c := range grid {
				p[i] = c
				if s := score(); s > best {
					best, keep = s, p[i]
				}
			}
			p[i] = keep
		}
	}
	return p
}

func minMax(v []int64) (lo, hi int64) {
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// leastOfOrder returns the least element of multiplicative order o (a
// power of two) modulo the prime q.
func leastOfOrder(q, o int64) int64 {
	for g := int64(2); ; g++ {
		if powMod(g, o, q) == 1 && powMod(g, o/2, q) != 1 {
			return g
		}
	}
}

func powMod(b, e, q int64) int64 {
	r := int64(1)
	for b %= q; e > 0; e >>= 1 {
		if e&1 == 1 {
			r = r * b % q
		}
		b = b * b % q
	}
	return r
}
