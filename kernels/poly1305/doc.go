// Package poly1305 implements the Poly1305 one-time authenticator of
// RFC 8439 with the API of golang.org/x/crypto/poly1305, dispatching by
// message size among generated variants: scalar radix 2^64 (MULQ, or
// MULXQ with ADCXQ/ADOXQ, the reduction after the product or fused into
// it), AVX2 and AVX-512F radix 2^26 and AVX-512 IFMA radix 2^44,
// registered in kernels/variant as kernel "poly1305".
//
// Every variant honours one state contract at its boundary: the
// accumulator h is a 130-bit value h[0] + h[1]·2^64 + h[2]·2^128 with
// h[2] < 8 (partially reduced modulo p = 2^130 - 5), and a variant adds a
// run of full 16-byte blocks to it. Vector variants convert h to and from
// their limb radix inside each call, so a streaming MAC may switch
// variants between writes. The final partial block, the reduction modulo
// p and the addition of s are done by the same Go code for all variants.
//
// A program links the generic code and the production set: the variants
// the compiled dispatch table (kernels/dispatch/ztable.go) can select,
// which are the only ones registered and planned among at init. The lab
// (tunelab, its workers, tests) imports lab/variants/poly1305, which holds
// every other generated variant, and calls RegisterVariants, which adds
// them and plans again, so that TUNELAB_DISPATCH can force any of them.
// The state, the generic arithmetic and the variant record that both
// packages use are in internal/poly1305core.
//
// A key must be used for one message only, as Poly1305 requires.
package poly1305
