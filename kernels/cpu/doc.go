// Package cpu identifies the CPU: what tunelab's result files record and
// what kernels/dispatch selects variants by.
//
// # CPU identity
//
// Host returns the CPU this process runs on: vendor string, family, model
// and stepping decoded from CPUID leaf 1 by the vendor's rules, brand,
// cores, caches, a microarchitecture name, a dispatch key
// ("AuthenticAMD/0x19/0x11") and a feature level (x86-64-v1..v4).
//
// # Feature names
//
// Feature names used throughout tunelab (variant requirements, masks,
// reports) are lowercase. Kernel-relevant features: sse41, avx, avx2, bmi1,
// bmi2, adx, aes, pclmulqdq, sha, avx512f, avx512bw, avx512vl, avx512dq,
// avx512cd, avx512vbmi, avx512vbmi2, avx512ifma, avx512vnni, avx512bitalg,
// avx512vpopcntdq, avx512bf16, vaes, vpclmulqdq, gfni. Features that only
// decide the feature level: sse3, ssse3, sse42, popcnt, cx16, lahf, fma,
// f16c, lzcnt, movbe, osxsave.
//
// # Masks: TUNELAB_CPU
//
// TUNELAB_CPU="avx512f=off,vaes=off" (or "all=off") hides features of
// Host from Has, from the feature level and so from what kernels/dispatch
// selects, in the spirit of Go's GODEBUG=cpu.avx512f=off. Masking a feature also masks every feature that
// cannot be used without it, so that the masked CPU is one that could
// exist: avx512f masks all avx512*; avx2 masks avx512f; avx masks avx2,
// fma, f16c, vaes and vpclmulqdq; osxsave (the OS's XSAVE support, which
// AVX state needs) masks avx; aes masks vaes; pclmulqdq masks
// vpclmulqdq; sse3 > ssse3 > sse41 > sse42 > avx each mask the next. "all"
// masks every named feature (leaving the x86-64-v1 baseline). Only the
// value "off" is accepted. Invalid entries are ignored with a one-time
// warning on stderr that quotes them. Identify and CPU.Mask take a mask
// in the same syntax.
package cpu
