package mldsa

import (
	"encoding/binary"

	"github.com/tunelab/tunelab/kernels/sha3"
)

// Sampling (FIPS 204, Section 7.3). The matrix and the secret vectors are
// drawn from streams of a sha3.Batch, which hashes them NR at a time
// beside the operation's other independent hashes and hands each
// squeezed block to its rejection sampler in place, until the polynomial
// is full; the mask streams, read whole, are fixed-length sponges of a
// batch.

const (
	rate128 = 168 // SHAKE128 block
	rate256 = 136 // SHAKE256 block

	// aStream is the usual read of a RejNTTPoly stream: 280 candidates
	// of three bytes for 256 coefficients, each rejected with probability
	// below 2^-10.
	aStream = 5 * rate128
	// sStream is the usual read of a RejBoundedPoly stream: 544
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

// A samplers holds the rejection samplers of the streams of one
// sha3.Batch: for each stream, by its index in the batch, the polynomial
// it fills (nil for a sponge that is no sampler), the coefficients filled
// so far and η (0 for RejNTTPoly); and the seeds of ExpandA and ExpandS.
type samplers struct {
	poly  [sha3.MaxJobs]*poly
	count [sha3.MaxJobs]int
	eta   [sha3.MaxJobs]int32
	seedA [maxK * maxL][rhoSize + 2]byte
	seedS [maxK + maxL][seedS]byte
}

// aBlocks and sBlocks are the SHAKE128 and SHAKE256 blocks RejNTTPoly and
// RejBoundedPoly are expected to read (the schedule's estimate; a stream
// that needs more reads on).
const (
	aBlocks = aStream / rate128
	sBlocks = sStream / rate256
)

// addExpandA adds the streams of Â[r][s] = RejNTTPoly(ρ || s || r) (FIPS
// 204 Algorithm 32) into a[r·l+s], in the NTT domain with canonical
// coefficients, to b. Â is public: the rejection loop may take any time.
func (p *params) addExpandA(b *sha3.Batch, sm *samplers, a []poly, rho *[rhoSize]byte) {
	for x := range p.k * p.l {
		seed := &sm.seedA[x]
		copy(seed[:], rho[:])
		seed[rhoSize], seed[rhoSize+1] = byte(x%p.l), byte(x/p.l)
		sm.add(b.Stream128(aBlocks, seed[:]), &a[x], 0)
	}
}

// addExpandS adds the streams of ExpandS(ρ') (FIPS 204 Algorithm 33) to
// b: s1[r] = RejBoundedPoly(ρ' || r) for r < l and s2[r] =
// RejBoundedPoly(ρ' || l+r) for r < k, centered (coefficients in
// [-η, η]).
func (p *params) addExpandS(b *sha3.Batch, sm *samplers, s1, s2 []poly, rhoP *[rhoPrime]byte) {
	for r := range p.l + p.k {
		seed := &sm.seedS[r]
		copy(seed[:], rhoP[:])
		binary.LittleEndian.PutUint16(seed[rhoPrime:], uint16(r))
		dst := &s2[(r-p.l+p.k)%p.k]
		if r < p.l {
			dst = &s1[r]
		}
		sm.add(b.Stream256(sBlocks, seed[:]), dst, p.eta)
	}
}

// add records stream i of a batch as the sampler of a (η = 0: uniform).
func (sm *samplers) add(i int, a *poly, eta int32) {
	sm.poly[i], sm.count[i], sm.eta[i] = a, 0, eta
}

// run runs b and samples each block its samplers' streams squeeze, read
// in place, until every polynomial is full.
func (sm *samplers) run(b *sha3.Batch) {
	for {
		i, block, ok := b.Next()
		if !ok {
			return
		}
		if sm.eta[i] == 0 {
			sm.count[i] = sampleUniform(sm.poly[i], sm.count[i], block)
		} else {
			sm.count[i] = sampleBounded(sm.poly[i], sm.count[i], block, sm.eta[i])
		}
		if sm.count[i] == n {
			b.Done(i)
		}
	}
}

// expandA sets a[r·l+s] = Â[r][s] (addExpandA) on a batch of its own.
func (p *params) expandA(a []poly, rho *[rhoSize]byte) {
	var b sha3.Batch
	var sm samplers
	p.addExpandA(&b, &sm, a, rho)
	sm.run(&b)
}

// expandS sets s1 and s2 to ExpandS(ρ') (addExpandS) on a batch of its
// own.
func (p *params) expandS(s1, s2 []poly, rhoP *[rhoPrime]byte) {
	var b sha3.Batch
	var sm samplers
	p.addExpandS(&b, &sm, s1, s2, rhoP)
	sm.run(&b)
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

// The secret coefficients of RejBoundedPoly go through sampleBounded
// without a branch or an index on their values: each candidate is decoded
// without a branch and stored at the running count, so time and addresses
// depend only on which candidates were rejected, which the spec's
// rejection loop reveals anyway and which is independent of the accepted
// values.

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
	var b sha3.Batch
	for r := range p.l {
		copy(seeds[r][:], rhoPP[:])
		binary.LittleEndian.PutUint16(seeds[r][64:], uint16(kappa+r))
		b.SHAKE256(bufs[r][:p.zBytes()], seeds[r][:])
	}
	b.Run()
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
