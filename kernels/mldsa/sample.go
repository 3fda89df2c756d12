package mldsa

import "encoding/binary"

// Sampling (FIPS 204, Section 7.3). The matrix, the secret vectors and the
// mask are each drawn from many independent SHAKE streams at once
// (shake128Many, shake256Many) with a fixed output length that almost
// always suffices; a stream that runs short is continued by a plain SHAKE
// instance, which re-squeezes the bytes already used and reads on.

const (
	rate128 = 168 // SHAKE128 block
	rate256 = 136 // SHAKE256 block

	// aStream is the first read of each RejNTTPoly stream: 280 candidates
	// of three bytes for 256 coefficients, each rejected with probability
	// below 2^-10.
	aStream = 5 * rate128
	// aBatch is the number of matrix streams hashed at once.
	aBatch = 8
	// sStream is the first read of each RejBoundedPoly stream: 544
	// candidates for 256 coefficients, accepted with probability 15/16
	// (η = 2) or 9/16 (η = 4, mean 306).
	sStream = 2 * rate256
	// seedS is ρ' || IntegerToBytes(r, 2); seedMask is ρ″ ||
	// IntegerToBytes(κ + r, 2).
	seedS    = rhoPrime + 2
	seedMask = 64 + 2
	// maskBytes is the longest ExpandMask stream.
	maskBytes = n * 20 / 8
)

// expandA sets a[r·l+s] = Â[r][s] = RejNTTPoly(ρ || s || r) (FIPS 204
// Algorithm 32), in the NTT domain with canonical coefficients. Â is
// public: the rejection loop may take any time.
func (p *params) expandA(a []poly, rho *[rhoSize]byte) {
	var seeds [aBatch][rhoSize + 2]byte
	var bufs [aBatch][aStream]byte
	var ins, outs [aBatch][]byte
	total := p.k * p.l
	for first := 0; first < total; first += aBatch {
		m := min(aBatch, total-first)
		for b := range m {
			r, s := (first+b)/p.l, (first+b)%p.l
			copy(seeds[b][:], rho[:])
			seeds[b][rhoSize], seeds[b][rhoSize+1] = byte(s), byte(r)
			ins[b], outs[b] = seeds[b][:], bufs[b][:]
		}
		shake128Many(outs[:m], ins[:m])
		for b := range m {
			rejNTTPoly(&a[first+b], seeds[b][:], bufs[b][:])
		}
	}
}

// rejNTTPoly is RejNTTPoly (FIPS 204 Algorithm 30) on the stream
// SHAKE128(seed) whose first len(buf) bytes (a multiple of 3) are buf.
func rejNTTPoly(a *poly, seed, buf []byte) {
	j := sampleUniform(a, 0, buf)
	if j == n {
		return
	}
	h := newSHAKE128()
	h.Write(seed)
	var more [rate128]byte
	sampleRest(h, len(buf), j, more[:], func(j int, b []byte) int { return sampleUniform(a, j, b) })
}

// sampleRest goes on with the stream h after its first skip bytes, which
// gave coefficients 0..j-1: it reads a block at a time into block and
// samples it until the polynomial is full (sample returns the new count).
func sampleRest(h *shake, skip, j int, block []byte, sample func(j int, buf []byte) int) {
	for ; skip > 0; skip -= len(block) {
		h.Read(block[:min(len(block), skip)])
	}
	for j < n {
		h.Read(block)
		j = sample(j, block)
	}
}

// sampleUniform fills a[j:] with the three-byte candidates of buf below Q
// (CoeffFromThreeBytes, FIPS 204 Algorithm 14) and returns the new j.
// Eight candidates (24 bytes, three words) are decoded at a time while
// eight more coefficients are needed, each stored at a[j] and kept by
// advancing j; the rest goes one candidate at a time.
func sampleUniform(a *poly, j int, buf []byte) int {
	for len(buf) >= 24 && j <= n-8 {
		x0 := binary.LittleEndian.Uint64(buf)
		x1 := binary.LittleEndian.Uint64(buf[8:])
		x2 := binary.LittleEndian.Uint64(buf[16:])
		j = keep(a, j, x0)
		j = keep(a, j, x0>>24)
		j = keep(a, j, x0>>48|x1<<16)
		j = keep(a, j, x1>>8)
		j = keep(a, j, x1>>32)
		j = keep(a, j, x1>>56|x2<<8)
		j = keep(a, j, x2>>16)
		j = keep(a, j, x2>>40)
		buf = buf[24:]
	}
	for ; len(buf) >= 3 && j < n; buf = buf[3:] {
		c := int32(buf[0]) | int32(buf[1])<<8 | int32(buf[2]&0x7f)<<16
		if c < Q {
			a[j] = c
			j++
		}
	}
	return j
}

// keep stores the 23-bit candidate in the low bits of v at a[j] and
// returns j+1 if it is below q, else j (the next candidate overwrites it).
// j < n; the mask keeps the index check out of the loop.
func keep(a *poly, j int, v uint64) int {
	c := int32(v & (1<<23 - 1))
	a[j&(n-1)] = c
	return j + int(uint32(c-Q)>>31)
}

// expandS sets s1 and s2 (centered, coefficients in [-η, η]) to ExpandS(ρ')
// (FIPS 204 Algorithm 33): s1[r] = RejBoundedPoly(ρ' || r) for r < l and
// s2[r] = RejBoundedPoly(ρ' || l+r) for r < k.
func (p *params) expandS(s1, s2 []poly, rhoP *[rhoPrime]byte) {
	var seeds [maxK + maxL][seedS]byte
	var bufs [maxK + maxL][sStream]byte
	var ins, outs [maxK + maxL][]byte
	m := p.l + p.k
	for r := range m {
		copy(seeds[r][:], rhoP[:])
		binary.LittleEndian.PutUint16(seeds[r][rhoPrime:], uint16(r))
		ins[r], outs[r] = seeds[r][:], bufs[r][:]
	}
	shake256Many(outs[:m], ins[:m])
	for r := range p.l {
		rejBoundedPoly(&s1[r], seeds[r][:], bufs[r][:], p.eta)
	}
	for r := range p.k {
		rejBoundedPoly(&s2[r], seeds[p.l+r][:], bufs[p.l+r][:], p.eta)
	}
}

// rejBoundedPoly is RejBoundedPoly (FIPS 204 Algorithm 31) on the stream
// SHAKE256(seed) whose first len(buf) bytes are buf. The coefficients are
// secret: each candidate is decoded without a branch and stored at the
// running count, so time and addresses depend only on which candidates
// were rejected, which the spec's rejection loop reveals anyway and which
// is independent of the accepted values.
func rejBoundedPoly(a *poly, seed, buf []byte, eta int32) {
	j := sampleBounded(a, 0, buf, eta)
	if j == n {
		return
	}
	h := newSHAKE256()
	h.Write(seed)
	var more [rate256]byte
	sampleRest(h, len(buf), j, more[:], func(j int, b []byte) int { return sampleBounded(a, j, b, eta) })
}

// sampleBounded fills a[j:] with the accepted half-byte candidates of buf,
// low nibble first, and returns the new j. While two more coefficients fit
// both candidates of a byte are stored unconditionally, each kept by
// advancing j; the last coefficient takes the first accepted candidate.
func sampleBounded(a *poly, j int, buf []byte, eta int32) int {
	hb := newHalfByte(eta)
	for len(buf) > 0 && j < n-1 {
		b := int32(buf[0])
		buf = buf[1:]
		v, ok := hb.coeff(b & 15)
		a[j] = v
		j += int(ok)
		v, ok = hb.coeff(b >> 4)
		a[j] = v
		j += int(ok)
	}
	for ; len(buf) > 0 && j < n; buf = buf[1:] {
		for _, nibble := range [2]int32{int32(buf[0] & 15), int32(buf[0] >> 4)} {
			if v, ok := hb.coeff(nibble); ok == 1 && j < n {
				a[j] = v
				j++
			}
		}
	}
	return j
}

// A halfByte is CoeffFromHalfByte (FIPS 204 Algorithm 15) for one η,
// without a branch on the nibble: b is accepted if b < limit (15 for
// η = 2, 9 for η = 4) and gives η - (b mod 5) or η - b. b mod 5 for
// b < 16 is b - 5·⌊205·b/1024⌋, so both are η - b + five·⌊205·b/1024⌋
// with five = 5 or 0.
type halfByte struct{ eta, five, limit int32 }

// newHalfByte returns the halfByte of η (2 or 4).
func newHalfByte(eta int32) halfByte {
	if eta == 2 {
		return halfByte{eta: 2, five: 5, limit: 15}
	}
	return halfByte{eta: 4, five: 0, limit: 9}
}

// coeff returns the coefficient of nibble b and ok = 1 if b is accepted,
// else ok = 0 and a value to drop.
func (hb halfByte) coeff(b int32) (v, ok int32) {
	return hb.eta - b + hb.five*(b*205>>10), (b - hb.limit) >> 31 & 1
}

// expandMask sets y[:l] (centered, in (-γ1, γ1]) to ExpandMask(ρ″, κ)
// (FIPS 204 Algorithm 34): y[r] = BitUnpack(H(ρ″ || κ+r, 32·zBits),
// γ1-1, γ1), every stream read once with no rejection, and yHat[:l] to the
// same canonical. bufs receives the streams.
func (p *params) expandMask(y, yHat *[maxL]poly, bufs *[maxL][maskBytes]byte, rhoPP *[64]byte, kappa int) {
	var seeds [maxL][seedMask]byte
	var ins, outs [maxL][]byte
	for r := range p.l {
		copy(seeds[r][:], rhoPP[:])
		binary.LittleEndian.PutUint16(seeds[r][64:], uint16(kappa+r))
		ins[r], outs[r] = seeds[r][:], bufs[r][:p.zBytes()]
	}
	shake256Many(outs[:p.l], ins[:p.l])
	for r := range p.l {
		p.unpackZ(&y[r], &yHat[r], bufs[r][:])
	}
}

// sampleInBall sets c to SampleInBall(ρ) (FIPS 204 Algorithm 29) with
// canonical coefficients: τ of them ±1 (1 or Q-1), the rest 0. It branches
// on and indexes by the hash bytes, as the reference implementations do:
// its input c̃ is public in an accepted signature, and in a rejected
// attempt it is a hash of the hidden commitment w1.
func sampleInBall(c *poly, rho []byte, tau int) {
	h := newSHAKE256()
	h.Write(rho)
	var buf [rate256]byte
	h.Read(buf[:])
	signs := binary.LittleEndian.Uint64(buf[:8])
	pos := 8
	clear(c[:])
	for i := n - tau; i < n; i++ {
		var j int
		for {
			if pos == len(buf) {
				h.Read(buf[:])
				pos = 0
			}
			j = int(buf[pos])
			pos++
			if j <= i {
				break
			}
		}
		c[i] = c[j]
		c[j] = 1 + int32(signs&1)*(Q-2)
		signs >>= 1
	}
}
