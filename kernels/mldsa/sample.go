package mldsa

import (
	"encoding/binary"

	"github.com/tunelab/tunelab/kernels/internal/polysample"
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
	p.addExpandARows(b, sm, a, rho, 0, p.k)
}

// addExpandARows adds the streams of rows r0 to r1−1 of Â (addExpandA).
func (p *params) addExpandARows(b *sha3.Batch, sm *samplers, a []poly, rho *[rhoSize]byte, r0, r1 int) {
	for r := r0; r < r1; r++ {
		for s := range p.l {
			x := r*p.l + s
			seed := &sm.seedA[x]
			copy(seed[:], rho[:])
			seed[rhoSize], seed[rhoSize+1] = byte(s), byte(r)
			sm.add(b.Stream128(aBlocks, seed[:]), &a[x], 0)
		}
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
		var dst *poly
		if r < p.l {
			dst = &s1[r]
		} else {
			dst = &s2[r-p.l]
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

// sampleUniform continues RejNTTPoly with a[:j] sampled on the bytes of
// buf and returns the new count: the dispatched kernel mldsa.rejntt
// (kernels/internal/polysample).
func sampleUniform(a *poly, j int, buf []byte) int { return polysample.RejNTT23(a, j, buf) }

// sampleBounded continues RejBoundedPoly for η with a[:j] sampled on the
// bytes of buf and returns the new count: the dispatched kernel
// mldsa.rejeta, whose values are secret and which branches and indexes
// only on which candidates were rejected.
func sampleBounded(a *poly, j int, buf []byte, eta int32) int {
	return polysample.RejEta(a, j, buf, eta)
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
