package mlkem

import (
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
	addMatrixRows(b, ms, rho, k, 0, k)
}

// addMatrixRows adds the streams of rows r0 to r1−1 of Â (addMatrix).
func addMatrixRows(b *sha3.Batch, ms *matrixScratch, rho *[32]byte, k, r0, r1 int) {
	ms.first, ms.x0 = b.Len(), r0*k
	for i := r0; i < r1; i++ {
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

// runMatrix runs b, whose only streams are those of addMatrix (or
// addMatrixRows), and sets a[i·k+j] to Â[i, j] = SampleNTT(ρ || j || i),
// sampling each block of a stream straight from the Keccak state as the
// batch squeezes it.
func runMatrix(b *sha3.Batch, a []poly, ms *matrixScratch) {
	for {
		i, block, ok := b.Next()
		if !ok {
			return
		}
		x := i - ms.first + ms.x0
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

// cbd2 sets f to SamplePolyCBD_2(b) for the first 128 bytes of b,
// canonical: the dispatched kernel mlkem.cbd2
// (kernels/internal/polysample).
func cbd2(f *poly, b []byte) { polysample.CBD2(f, (*[128]byte)(b[:128])) }

// cbd3 sets f to SamplePolyCBD_3(b) for the first 192 bytes of b,
// canonical: the dispatched kernel mlkem.cbd3.
func cbd3(f *poly, b []byte) { polysample.CBD3(f, (*[192]byte)(b[:192])) }
