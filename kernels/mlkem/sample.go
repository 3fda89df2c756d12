package mlkem

import (
	"encoding/binary"

	"github.com/tunelab/tunelab/kernels/internal/polysample"
	"github.com/tunelab/tunelab/kernels/sha3"
)

// Sampling of FIPS 203, 4.2.2: the matrix Â from ρ with SampleNTT
// (Algorithm 7) on SHAKE128, and the noise polynomials with
// SamplePolyCBD (Algorithm 8) on PRF = SHAKE256. The streams are added
// to a sha3.Batch (addMatrix, addNoise), which the caller runs with the
// operation's other independent hashes; the samplers then read the
// squeezed bytes in place.

// xofBlocks is how many blocks of each SHAKE128 stream SampleNTT is
// expected to read: three, 336 candidates for 256 coefficients; a stream
// needs more with probability below 1%, and its batch then squeezes on.
const xofBlocks = 3

// prfMax is the longest PRF output, 64·η for η = 3.
const prfMax = 64 * 3

// addMatrix adds the k² SampleNTT streams of Â, SHAKE128(ρ || j || i) for
// Â[i, j], to b. The matrix is public: the time rejection sampling takes
// may depend on it.
func addMatrix(b *sha3.Batch, ms *matrixScratch, rho *[32]byte, k int) {
	ms.first = b.Len()
	for i := range k {
		for j := range k {
			x := i*k + j
			in := &ms.in[x]
			copy(in[:], rho[:])
			in[32], in[33] = byte(j), byte(i)
			ms.count[x] = 0
			b.Stream128(xofBlocks, in[:])
		}
	}
}

// runMatrix runs b, whose only streams are those of addMatrix, and sets
// a[i·k+j] to Â[i, j] = SampleNTT(ρ || j || i), sampling each block of a
// stream straight from the Keccak state as the batch squeezes it.
func runMatrix(b *sha3.Batch, a []poly, ms *matrixScratch) {
	for {
		i, block, ok := b.Next()
		if !ok {
			return
		}
		x := i - ms.first
		ms.count[x] = rejectSample(&a[x], ms.count[x], block)
		if ms.count[x] == n {
			b.Done(i)
		}
	}
}

// rejectSample continues SampleNTT with f[:j] sampled on the bytes of
// buf (a multiple of 3) and returns how many coefficients are sampled
// after: the dispatched kernel mlkem.rejntt (kernels/internal/polysample).
func rejectSample(f *poly, j int, buf []byte) int { return polysample.RejNTT12(f, j, buf) }

// addNoise adds the PRF streams of count noise polynomials to b:
// PRF_η(seed, i) into sc.prf[i], with η = eta for i < nEta and η2 after.
func addNoise(b *sha3.Batch, sc *noiseScratch, seed *[32]byte, count, nEta, eta int) {
	for i := range count {
		in := &sc.prfIn[i]
		copy(in[:], seed[:])
		in[32] = byte(i)
		l := 64 * eta2
		if i < nEta {
			l = 64 * eta
		}
		b.SHAKE256(sc.prf[i][:l], in[:])
	}
}

// sampleNoise sets sc.noise[i] to SamplePolyCBD_η of the PRF outputs of
// addNoise, for i < count.
func sampleNoise(sc *noiseScratch, count, nEta, eta int) {
	for i := range count {
		if i < nEta && eta == 3 {
			cbd3(&sc.noise[i], sc.prf[i][:])
		} else {
			cbd2(&sc.noise[i], sc.prf[i][:])
		}
	}
}

// cbd2 sets f to SamplePolyCBD_2(b) for the 128 bytes of b, canonical:
// coefficient i is b_{4i} + b_{4i+1} − b_{4i+2} − b_{4i+3} mod q. The
// bit-pair sums of 64 bits are 16 nibbles (x in bits 0-1, y in bits 2-3),
// spread four at a time into the lanes of a word.
func cbd2(f *poly, b []byte) {
	b = b[:128]
	const m = 0x5555555555555555
	for i := range n / 16 {
		w := binary.LittleEndian.Uint64(b[8*i:])
		t := w&m + w>>1&m
		for o := range 4 {
			s := t >> (16 * o) & 0xffff
			x := s&0xf | s&0xf0<<12 | s&0xf00<<24 | s&0xf000<<36
			put4(f, 16*i+4*o, subGE(x&(3*ones)+Q*ones-x>>2&(3*ones), Q))
		}
	}
}

// cbd3 sets f to SamplePolyCBD_3(b) for the 192 bytes of b, canonical:
// coefficient i is the sum of bits 6i..6i+2 minus that of bits 6i+3..6i+5
// mod q. The bit-triple sums of 48 bits are eight 6-bit groups (x in bits
// 0-2, y in bits 3-5), spread four at a time into the lanes of a word.
func cbd3(f *poly, b []byte) {
	b = b[:192]
	const m = 0x249249249249
	for i := range n / 8 {
		w := uint64(binary.LittleEndian.Uint32(b[6*i:])) | uint64(binary.LittleEndian.Uint16(b[6*i+4:]))<<32
		t := w&m + w>>1&m + w>>2&m
		for o := range 2 {
			s := t >> (24 * o) & 0xffffff
			x := s&0x3f | s&0xfc0<<10 | s&0x3f000<<20 | s&0xfc0000<<30
			put4(f, 8*i+4*o, subGE(x&(7*ones)+Q*ones-x>>3&(7*ones), Q))
		}
	}
}
