package mldsa

import (
	"testing"
)

// modPM returns r mod± a: the representative in (-a/2, a/2] (a even).
func modPM(r, a int32) int32 {
	r0 := ((r % a) + a) % a
	if r0 > a/2 {
		r0 -= a
	}
	return r0
}

// specDecompose is Decompose (FIPS 204 Algorithm 36) as the spec writes it.
func specDecompose(r, gamma2 int32) (r1, r0 int32) {
	rp := ((r % Q) + Q) % Q
	r0 = modPM(rp, 2*gamma2)
	if rp-r0 == Q-1 {
		return 0, r0 - 1
	}
	return (rp - r0) / (2 * gamma2), r0
}

// decomposeInputs returns every r in [0, Q), or under -short the values
// next to every multiple of γ2 and of 2^d, both ends and a stride.
func decomposeInputs(gamma2 int32) []int32 {
	var rs []int32
	if !testing.Short() {
		for r := range int32(Q) {
			rs = append(rs, r)
		}
		return rs
	}
	for m := int32(0); m <= Q; m += gamma2 {
		for r := m - 3; r <= m+3; r++ {
			rs = append(rs, r)
		}
	}
	for m := int32(0); m <= Q; m += 1 << d {
		rs = append(rs, m-1, m, m+1, m+1<<(d-1), m+1<<(d-1)+1)
	}
	for r := int32(0); r < Q; r += 997 {
		rs = append(rs, r)
	}
	out := rs[:0]
	for _, r := range append(rs, Q-2, Q-1) {
		if r >= 0 && r < Q {
			out = append(out, r)
		}
	}
	return out
}

// TestDecompose checks the multiply-and-shift Decompose of both γ2, the
// specialized decompose32 and decompose88 and HighBits against the spec's
// definition on every r in [0, Q) (the boundaries and a stride under
// -short).
func TestDecompose(t *testing.T) {
	for _, c := range []struct {
		rd      rounding
		gamma2  int32
		special func(int32) (int32, int32)
	}{{rounding32, (Q - 1) / 32, decompose32}, {rounding88, (Q - 1) / 88, decompose88}} {
		if c.rd.twoG2 != 2*c.gamma2 || c.rd.m != (Q-1)/(2*c.gamma2) {
			t.Fatalf("γ2 = %d: rounding constants %+v", c.gamma2, c.rd)
		}
		for _, r := range decomposeInputs(c.gamma2) {
			w1, w0 := specDecompose(r, c.gamma2)
			g1, g0 := c.rd.decompose(r)
			s1, s0 := c.special(r)
			if g1 != w1 || g0 != w0 || s1 != w1 || s0 != w0 || c.rd.highBits(r) != w1 {
				t.Fatalf("γ2 = %d: Decompose(%d) = (%d, %d), specialized (%d, %d), want (%d, %d)", c.gamma2, r, g1, g0, s1, s0, w1, w0)
			}
		}
	}
}

// TestPower2Round checks Power2Round against FIPS 204 Algorithm 35.
func TestPower2Round(t *testing.T) {
	for _, r := range decomposeInputs(1 << d) {
		w0 := modPM(r, 1<<d)
		w1 := (r - w0) >> d
		if g1, g0 := power2Round(r); g1 != w1 || g0 != w0 {
			t.Fatalf("Power2Round(%d) = (%d, %d), want (%d, %d)", r, g1, g0, w1, w0)
		}
	}
}

// specUseHint is UseHint (FIPS 204 Algorithm 40) as the spec writes it.
func specUseHint(h, r, gamma2 int32) int32 {
	m := (Q - 1) / (2 * gamma2)
	r1, r0 := specDecompose(r, gamma2)
	switch {
	case h == 1 && r0 > 0:
		return (r1 + 1) % m
	case h == 1:
		return (r1 - 1 + m) % m
	}
	return r1
}

// TestUseHint checks useHint and hinted against the spec for both hint
// values, and that a hint made by MakeHint (FIPS 204 Algorithm 39)
// recovers the high bits: UseHint(MakeHint(z, r), r) = HighBits(r + z)
// for small z.
func TestUseHint(t *testing.T) {
	for _, c := range []struct {
		rd     rounding
		gamma2 int32
	}{{rounding32, (Q - 1) / 32}, {rounding88, (Q - 1) / 88}} {
		for i, r := range decomposeInputs(c.gamma2) {
			for h := int32(0); h <= 1; h++ {
				if got, want := c.rd.useHint(h, r), specUseHint(h, r, c.gamma2); got != want {
					t.Fatalf("γ2 = %d: UseHint(%d, %d) = %d, want %d", c.gamma2, h, r, got, want)
				}
			}
			if got, want := c.rd.highBits(c.rd.hinted(r)), specUseHint(1, r, c.gamma2); got != want {
				t.Fatalf("γ2 = %d: HighBits(hinted(%d)) = %d, want %d", c.gamma2, r, got, want)
			}
			z := int32(i)%(2*c.gamma2/3) - c.gamma2/3
			v := canon((r + z) % Q)
			h := int32(0)
			if c.rd.highBits(r) != c.rd.highBits(v) {
				h = 1
			}
			if got, want := c.rd.useHint(h, r), c.rd.highBits(v); got != want {
				t.Fatalf("γ2 = %d: UseHint(MakeHint(%d, %d), %d) = %d, want HighBits(r+z) = %d", c.gamma2, z, r, r, got, want)
			}
		}
	}
}

// TestReduceLanes checks the two-lane reductions against % Q on the lane
// extremes and a dense sample below 2^26, in both lanes.
func TestReduceLanes(t *testing.T) {
	xs := []uint64{0, 1, Q - 1, Q, Q + 1, 2*Q - 1, 2 * Q, 8*Q - 8, 1<<23 - 1, 1 << 23, 1<<26 - 1}
	for x := uint64(0); x < 1<<26; x += 4093 {
		xs = append(xs, x)
	}
	for i, lo := range xs {
		hi := xs[(i*7+3)%len(xs)]
		got := reduceLanes(hi<<32 | lo)
		if got&(1<<32-1) != lo%Q || got>>32 != hi%Q {
			t.Fatalf("reduceLanes(%d, %d) = (%d, %d), want (%d, %d)", lo, hi, got&(1<<32-1), got>>32, lo%Q, hi%Q)
		}
	}
}

// TestRowSums checks subReduce coefficient by coefficient against int64
// arithmetic, on lazy sums of up to 7 canonical terms (the largest, 7
// terms of Q-1, in trial 0's repeats).
func TestRowSums(t *testing.T) {
	r := newTestRand("row sums")
	var a, b, acc, want [n]int64
	var pa, pb poly
	for trial := range 20 {
		var lazy poly
		clear(acc[:])
		terms := 1 + trial%7
		for range terms {
			fillPoly(r, &pa, trial == 0)
			for i := range acc {
				lazy[i] += pa[i]
				acc[i] += int64(pa[i])
			}
		}
		fillPoly(r, &pb, trial == 0)
		diff := lazy
		subReduce(&diff, &pb)
		for i := range a {
			a[i], b[i] = acc[i], int64(pb[i])
			want[i] = ((a[i]-b[i])%Q + Q) % Q
			if int64(diff[i]) != want[i] {
				t.Fatalf("trial %d (%d terms), coefficient %d: difference %d, want %d", trial, terms, i, diff[i], want[i])
			}
		}
	}
}

// fillPoly sets p to random canonical coefficients, or all Q-1 if max.
func fillPoly(r *testRand, p *poly, max bool) {
	b := r.bytes(4 * n)
	for i := range p {
		p[i] = int32((uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24) % Q)
		if max {
			p[i] = Q - 1
		}
	}
}

// TestFieldHelpers checks canon, centered, abs and exceeds on their
// boundaries.
func TestFieldHelpers(t *testing.T) {
	for _, c := range []struct{ x, canon int32 }{{-Q + 1, 1}, {-1, Q - 1}, {0, 0}, {Q - 1, Q - 1}} {
		if got := canon(c.x); got != c.canon {
			t.Errorf("canon(%d) = %d, want %d", c.x, got, c.canon)
		}
	}
	for _, c := range []struct{ x, centered int32 }{{0, 0}, {(Q - 1) / 2, (Q - 1) / 2}, {(Q + 1) / 2, -(Q - 1) / 2}, {Q - 1, -1}} {
		if got := centered(c.x); got != c.centered {
			t.Errorf("centered(%d) = %d, want %d", c.x, got, c.centered)
		}
	}
	var p poly
	for _, c := range []struct {
		x      int32
		bound  int32
		exceed bool
	}{{99, 100, false}, {100, 100, true}, {-99, 100, false}, {-100, 100, true}, {0, 1, false}} {
		p[200] = c.x
		if got := exceeds(&p, c.bound); got != c.exceed {
			t.Errorf("exceeds(coefficient %d, bound %d) = %v, want %v", c.x, c.bound, got, c.exceed)
		}
		p[200] = canon(c.x)
		if got := exceedsCanon(&p, c.bound); got != c.exceed {
			t.Errorf("exceedsCanon(coefficient %d, bound %d) = %v, want %v", c.x, c.bound, got, c.exceed)
		}
	}
}

// TestParams recomputes every derived size of the parameter sets from
// FIPS 204 Table 1 and Table 2.
func TestParams(t *testing.T) {
	for _, p := range []*params{&params44, &params65, &params87} {
		bitlen := func(x int32) uint {
			b := uint(0)
			for ; x > 0; x >>= 1 {
				b++
			}
			return b
		}
		checks := []struct {
			what      string
			got, want int
		}{
			{"bitlen(2η)", int(p.etaBits), int(bitlen(2 * p.eta))},
			{"bitlen((q-1)/(2γ2) - 1)", int(p.w1Bits), int(bitlen((Q-1)/(2*p.gamma2) - 1))},
			{"bitlen(2γ1 - 1)", int(p.zBits()), int(bitlen(2*p.gamma1() - 1))},
			{"rounding.twoG2", int(p.rounding.twoG2), int(2 * p.gamma2)},
			{"public key size", p.pkSize, 32 + 32*p.k*(23-d)},
			{"private key size", p.skSize, 128 + 32*((p.k+p.l)*int(p.etaBits)+d*p.k)},
			{"signature size", p.sigSize, p.cTilde + p.l*32*int(1+p.gamma1Bits) + p.omega + p.k},
			{"c̃ size", p.cTilde, map[int]int{4: 32, 6: 48, 8: 64}[p.k]},
		}
		for _, c := range checks {
			if c.got != c.want {
				t.Errorf("%s: %s = %d, want %d", p.name, c.what, c.got, c.want)
			}
		}
	}
}
