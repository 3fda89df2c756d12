// Package sha3 implements the SHA-3 hash functions and the SHAKE and
// cSHAKE extendable-output functions (FIPS 202, NIST SP 800-185) on the
// tuned Keccak kernels of kernels/keccak, with the shapes of the standard
// library's crypto/sha3, and adds many-stream SHAKE for the matrix and
// vector sampling of ML-KEM and ML-DSA.
//
// Outputs are byte for byte those of crypto/sha3 for every input, every
// split of Write and Read calls and every output length.
//
// # Kernels used
//
// Whole message blocks are absorbed with keccak.AbsorbBlocks, straight
// from the caller's slice when nothing is buffered, so that whatever
// variant kernels/keccak dispatches for the message size runs on them;
// only a partial block is buffered. Padding and squeezing use
// keccak.Permute. Short messages therefore cost one scalar (or whatever
// keccak.x1 dispatches to) permutation per block and no vector setup.
//
// # Many streams
//
// SHAKE128Many and SHAKE256Many hash independent streams NR at a time
// with keccak.PermuteX2, PermuteX4 or PermuteX8 (NR = 1 uses
// keccak.Permute). NR is the "ways" knob of the dispatched kernels
// "shake128.many" and "shake256.many", registered in kernels/variant with
// the variants ways=1, ways=2, ways=4 and ways=8 (each on keccak's
// dispatched permutation of that width), the generic reference
// isa=generic (the streams one after another through the single-stream
// sponge) and, in lab/baselines, crypto/sha3 as ext=sha3.
//
// A sweep of these kernels measures the sampling step of the lattice
// schemes as they run it. The size of a sweep is the number of streams
// (Unit "stream"; default sizes 4, 8 and 16: ML-KEM-512's matrix, about
// ML-KEM-768's, ML-KEM-1024's and ML-DSA-44's), and every stream has one
// fixed shape, so that the only question a sweep answers is which NR wins
// for that many streams on this CPU:
//
//   - shake128.many: 34-byte inputs (rho || j || i, ML-KEM's SampleNTT
//     seed) and 504-byte outputs (three SHAKE128 blocks, the usual
//     rejection-sampling read);
//   - shake256.many: 66-byte inputs (a 64-byte seed and a 2-byte counter,
//     ML-DSA's ExpandMask input) and 640-byte outputs (y for
//     gamma1 = 2^19, five SHAKE256 blocks).
//
// SweepShape reports these shapes. Dispatch selects by the number of
// streams (size classes): the compiled table's choice for len(ins), or,
// for a CPU the table lacks, the widest NR whose keccak permutation is
// dispatched to a SIMD variant on this host (ways=1 when keccak.x2, x4
// and x8 all run generic code, as on x86-64-v2). TUNELAB_DISPATCH forces
// one, e.g. TUNELAB_DISPATCH=shake128.many=ways=4.
package sha3
