// Command aes generates the AES-ECB block functions of kernels/aesecb: for
// each key size (128, 192, 256) and direction, AES-NI xmm with 1, 2, 4, 8
// blocks in flight and VAES ymm/zmm with 1, 2, 4, 8 registers in flight,
// round keys in registers or reloaded per round, whitening with a separate
// load or a folded memory operand, narrow or AVX-512 masked tails, loop
// alignment, and a loop-head offset sweep of one base variant; plus key
// expansion with AESKEYGENASSIST/AESIMC. It writes the assembly, the Go
// stubs and a table of the variants (-table) for registration.
package main

import (
	"flag"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"log"

	. "github.com/mmcloughlin/avo/build"
)

var tableOut = flag.String("table", "", "write the variant table (Go) to `file`")

func main() {
	flag.Parse()
	ConstraintExpr("!purego")
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
	avogen.Generate()
	if *tableOut != "" {
		if err := writeTable(*tableOut, all); err != nil {
			log.Fatal(err)
		}
	}
}
