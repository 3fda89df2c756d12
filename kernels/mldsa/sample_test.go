package mldsa

import (
	"crypto/sha3"
	"testing"
)

// specStream returns the first size bytes of SHAKE128 (wide = false) or
// SHAKE256 of seed, from the standard library.
func specStream(seed []byte, size int, wide bool) []byte {
	h := sha3.NewSHAKE128()
	if wide {
		h = sha3.NewSHAKE256()
	}
	h.Write(seed)
	out := make([]byte, size)
	h.Read(out)
	return out
}

// specRejNTT is RejNTTPoly's loop (FIPS 204 Algorithm 30) over stream.
func specRejNTT(stream []byte) (a poly, ok bool) {
	j := 0
	for i := 0; j < n && i+3 <= len(stream); i += 3 {
		if z := int32(stream[i]) | int32(stream[i+1])<<8 | int32(stream[i+2]&0x7f)<<16; z < Q {
			a[j] = z
			j++
		}
	}
	return a, j == n
}

// specRejBounded is RejBoundedPoly's loop (FIPS 204 Algorithm 31).
func specRejBounded(stream []byte, eta int32) (a poly, ok bool) {
	j := 0
	coeff := func(b int32) (int32, bool) {
		switch {
		case eta == 2 && b < 15:
			return 2 - b%5, true
		case eta == 4 && b < 9:
			return 4 - b, true
		}
		return 0, false
	}
	for _, z := range stream {
		if j == n {
			break
		}
		if v, ok := coeff(int32(z & 15)); ok {
			a[j] = v
			j++
		}
		if v, ok := coeff(int32(z >> 4)); ok && j < n {
			a[j] = v
			j++
		}
	}
	return a, j == n
}

// TestSampleUniform runs sampleUniform on crafted candidates: runs of
// rejected values (Q, 2^23-1 and the ignored top bit set) between accepted
// ones (0, Q-1), against the spec's loop, from every start j near the end.
func TestSampleUniform(t *testing.T) {
	var buf []byte
	for i := range 600 {
		var v uint32
		switch i % 7 {
		case 0, 3:
			v = Q + uint32(i)
		case 1:
			v = 1<<23 - 1
		case 2:
			v = Q - 1 | 1<<23 // the top bit is ignored: Q-1
		case 4:
			v = 0
		default:
			v = uint32(i * 9973)
		}
		buf = append(buf, byte(v), byte(v>>8), byte(v>>16))
	}
	want, ok := specRejNTT(buf)
	if !ok {
		t.Fatal("the crafted buffer has too few accepted candidates")
	}
	var got poly
	if j := sampleUniform(&got, 0, buf); j != n || got != want {
		t.Fatalf("sampleUniform on crafted candidates: j = %d, first difference at %d", j, firstDiffPoly(&got, &want))
	}
	for start := n - 9; start < n; start++ {
		got = want
		j := sampleUniform(&got, start, buf)
		if j != n || got[start] != want[0] {
			t.Fatalf("sampleUniform from j = %d: j = %d, a[%d] = %d, want %d", start, j, start, got[start], want[0])
		}
	}
}

// firstDiffPoly returns the first coefficient where a and b differ.
func firstDiffPoly(a, b *poly) int {
	for i := range a {
		if a[i] != b[i] {
			return i
		}
	}
	return -1
}

// TestRejectionBlocks feeds the samplers one stream in pieces of every
// length from none to the usual first read, then block by block (as a
// batch hands a stream that needs more than expected), and compares with
// the spec's loop on the whole stream.
func TestRejectionBlocks(t *testing.T) {
	r := newTestRand("fallback")
	feed := func(first int, stream []byte, block int, sample func(j int, b []byte) int) {
		j := sample(0, stream[:first])
		for off := first; j < n; off += block {
			j = sample(j, stream[off:off+block])
		}
	}
	for trial := range 3 {
		seed := r.bytes(rhoSize + 2)
		stream := specStream(seed, 3*aStream, false)
		want, _ := specRejNTT(stream)
		for _, m := range []int{0, 3, 96, rate128, 2 * rate128, 3 * rate128, aStream} {
			var got poly
			feed(m, stream, rate128, func(j int, b []byte) int { return sampleUniform(&got, j, b) })
			if got != want {
				t.Fatalf("RejNTTPoly, trial %d, first read %d bytes: coefficient %d differs", trial, m, firstDiffPoly(&got, &want))
			}
		}
		seed = r.bytes(seedS)
		stream = specStream(seed, 4*sStream, true)
		for _, eta := range []int32{2, 4} {
			want, _ := specRejBounded(stream, eta)
			for _, m := range []int{0, 1, 100, rate256, 140, sStream} {
				var got poly
				feed(m, stream, rate256, func(j int, b []byte) int { return sampleBounded(&got, j, b, eta) })
				if got != want {
					t.Fatalf("RejBoundedPoly η = %d, trial %d, first read %d bytes: coefficient %d differs", eta, trial, m, firstDiffPoly(&got, &want))
				}
			}
		}
	}
}

// TestExpand checks expandA, expandS and expandMask against the spec's
// loops on the streams of the standard library's SHAKE, for every
// parameter set.
func TestExpand(t *testing.T) {
	r := newTestRand("expand")
	for _, p := range []*params{&params44, &params65, &params87} {
		rho, rhoP, rhoPP := (*[rhoSize]byte)(r.bytes(rhoSize)), (*[rhoPrime]byte)(r.bytes(rhoPrime)), (*[64]byte)(r.bytes(64))
		a := make([]poly, p.k*p.l)
		p.expandA(a, rho)
		for i := range a {
			want, _ := specRejNTT(specStream(append(rho[:], byte(i%p.l), byte(i/p.l)), 4*aStream, false))
			if a[i] != want {
				t.Fatalf("%s: Â[%d][%d] coefficient %d differs", p.name, i/p.l, i%p.l, firstDiffPoly(&a[i], &want))
			}
		}
		s := make([]poly, p.l+p.k)
		p.expandS(s[:p.l], s[p.l:], rhoP)
		for i := range s {
			want, _ := specRejBounded(specStream(append(rhoP[:], byte(i), 0), 4*sStream, true), p.eta)
			if s[i] != want {
				t.Fatalf("%s: s[%d] (s1 then s2) coefficient %d differs", p.name, i, firstDiffPoly(&s[i], &want))
			}
		}
		var y, yHat [maxL]poly
		var bufs [maxL][maskBytes]byte
		const kappa = 0x1234
		p.expandMask(&y, &yHat, &bufs, rhoPP, kappa)
		for i := range p.l {
			var want poly
			unpackPoly(&want, specStream(append(rhoPP[:], byte(kappa+i), byte((kappa+i)>>8)), p.zBytes(), true), p.zBits(), p.gamma1(), 1)
			if y[i] != want {
				t.Fatalf("%s: y[%d] coefficient %d differs", p.name, i, firstDiffPoly(&y[i], &want))
			}
		}
	}
}

// specSampleInBall is SampleInBall (FIPS 204 Algorithm 29), centered.
func specSampleInBall(rho []byte, tau int) (c [n]int32) {
	h := sha3.NewSHAKE256()
	h.Write(rho)
	var s [8]byte
	h.Read(s[:])
	next := func() int {
		var b [1]byte
		h.Read(b[:])
		return int(b[0])
	}
	for i := n - tau; i < n; i++ {
		j := next()
		for j > i {
			j = next()
		}
		bit := s[(i+tau-n)/8] >> ((i + tau - n) % 8) & 1
		c[i] = c[j]
		c[j] = 1 - 2*int32(bit)
	}
	return c
}

// TestSampleInBall compares sampleInBall with the spec's algorithm for the
// three τ and random seeds of the three c̃ sizes, and checks that exactly τ
// coefficients are ±1.
func TestSampleInBall(t *testing.T) {
	r := newTestRand("ball")
	for _, p := range []*params{&params44, &params65, &params87} {
		for trial := range counts(100, 10) {
			rho := r.bytes(p.cTilde)
			want := specSampleInBall(rho, p.tau)
			var c poly
			sampleInBall(&c, rho, p.tau)
			weight := 0
			for i, x := range c {
				if centered(x) != want[i] {
					t.Fatalf("%s trial %d: c[%d] = %d, want %d", p.name, trial, i, centered(x), want[i])
				}
				if x != 0 {
					weight++
				}
			}
			if weight != p.tau {
				t.Fatalf("%s trial %d: %d nonzero coefficients, want τ = %d", p.name, trial, weight, p.tau)
			}
		}
	}
}
