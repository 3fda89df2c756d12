// Command aesecb generates the AES-ECB block functions of kernels/aesecb: for
// each key size (128, 192, 256) and direction, AES-NI xmm with 1, 2, 4, 8
// blocks in flight and VAES ymm/zmm with 1, 2, 4, 8 registers in flight,
// round keys in registers or reloaded per round, whitening with a separate
// load or a folded memory operand, narrow or AVX-512 masked tails, loop
// alignment, and a loop-head offset sweep of one base variant; plus key
// expansion with AESKEYGENASSIST/AESIMC. It writes the assembly, the Go
// stubs, and the variant tables for registration: the lab table of every
// variant (-table) and the production table of those the compiled
// dispatch table can select (-prod).
package main

import (
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
)

func main() {
	famgen.Generate(famgen.Generator[[]config]{Name: "aesecb", Secrets: secrets, Build: build, Tables: writeTables})
}

// build emits every block function, per key size and direction, and the
// key expansions; it returns the block functions' configurations.
func build() []config {
	var all []config
	for _, bits := range []int{128, 192, 256} {
		for _, dec := range []bool{false, true} {
			for _, c := range space(bits, dec) {
				c.emit()
				all = append(all, c)
			}
		}
	}
	for _, bits := range []int{128, 192, 256} {
		expandKey(bits)
	}
	return all
}

// secrets classifies the generated functions' parameters for the
// constant-time check (-ct): round keys, blocks in and out, and the key
// expansion's key and schedules are all secret.
var secrets = ctcheck.Args{Secret: []string{"rk", "dst", "src", "key", "enc", "dec"}}
