//go:build tools

// Package tools pins modules that the project uses before any package
// imports them, so that `go mod tidy` keeps them in go.mod.
package tools

import (
	_ "github.com/cloudflare/circl/simd/keccakf1600"
	_ "github.com/google/pprof/profile"
	_ "github.com/klauspost/cpuid/v2"
	_ "github.com/mmcloughlin/avo/build"
	_ "golang.org/x/crypto/poly1305"
	_ "golang.org/x/perf/benchfmt"
	_ "golang.org/x/perf/benchmath"
	_ "golang.org/x/perf/benchproc"
	_ "golang.org/x/sys/unix"
)
