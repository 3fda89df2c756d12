// Package dispatch identifies the CPU and selects, per kernel and size
// class, the variant production code runs.
//
// Feature names used throughout tunelab (variant requirements, masks,
// reports) are lowercase: sse41, avx, avx2, bmi1, bmi2, adx, aes, pclmulqdq,
// sha, avx512f, avx512bw, avx512vl, avx512dq, avx512cd, avx512vbmi,
// avx512vbmi2, avx512ifma, avx512vnni, vaes, vpclmulqdq, gfni.
package dispatch
