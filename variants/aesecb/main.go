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
	"flag"
	"log"

	. "github.com/mmcloughlin/avo/build"
	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
)

var (
	tableOut = flag.String("table", "", "write the lab table of every variant (Go) to `file`")
	prodOut  = flag.String("prod", "", "write the production table (Go) to `file`; required with -table")
)

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
	if err := ctcheck.Check(secrets); err != nil {
		log.Fatal(err)
	}
	if *tableOut != "" {
		if *prodOut == "" {
			log.Fatal("-table needs -prod: the lab and production tables are written together")
		}
		if err := writeTables(*tableOut, *prodOut, all); err != nil {
			log.Fatal(err)
		}
	}
	if err := ctcheck.Write(); err != nil {
		log.Fatal(err)
	}
}

// secrets classifies the generated functions' parameters for the
// constant-time check (-ct): round keys, blocks in and out, and the key
// expansion's key and schedules are all secret.
var secrets = ctcheck.Args{Secret: []string{"rk", "dst", "src", "key", "enc", "dec"}}
