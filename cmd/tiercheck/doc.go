// Command tiercheck calls every exported kernel function of the family
// packages (kernels/keccak, kernels/sha3, kernels/poly1305, kernels/aesecb, kernels/mlkem,
// kernels/mldsa) and every whole operation (SHA-3 and SHAKE; ML-KEM-512,
// -768 and -1024 key generation, encapsulation and decapsulation; ML-DSA-44,
// -65 and -87 key generation, signing and verification) at a fixed spread
// of sizes from 0 bytes to 1 MiB on deterministic inputs, and prints one
// SHA-256 digest per function plus one over all outputs.
//
// The output is a function of the inputs and the specifications only: a
// build with -tags purego (generic Go), a native build on any CPU and a
// build run under emulation of another CPU tier (QEMU user mode, Bochs for
// AVX-512) must print the same bytes. .ci/matrix compares them and fails with a diff.
//
// Usage:
//
//	go run ./cmd/tiercheck [-func REGEXP] [-seed N] [-maxsize N] [-list] [-v]
//
// -maxsize leaves out the larger sizes (emulators that run AVX-512 are
// hundreds of times slower than the host); the first line of the output
// names the sizes run, so only runs with the same -maxsize compare.
//
// For a variable-length function (poly1305, aesecb) size n is the message
// length. A fixed-size function (Keccak permutations, NTTs) runs on n
// bytes' worth of inputs: ceil(n/B) calls for an input of B bytes, at least
// one; size 0 is one call on an all-zero input and size 1 one call on the
// largest input (all-ones Keccak lanes, coefficients q-1). Every other
// input comes from a splitmix64 stream seeded by -seed and the function's
// name, so a run filtered with -func prints the same per-function lines.
//
// With -v, stderr gets the CPU tier as dispatch sees it, each function's
// running time and the variant each kernel dispatched to; none of that is
// part of the compared output.
package main
