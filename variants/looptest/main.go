// Command looptest emits loops at known placements for the asmmap tests: one
// function per placement, each a counted loop of ADDQ instructions.
package main

import (
	"fmt"
	"strings"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"

	"github.com/tunelab/tunelab/internal/asmalign"
)

// Placements are the loop-head placements the tests check.
var placements = []string{"none", "16", "32", "64", "64+7", "64+36", "64+60"}

func main() {
	ConstraintExpr("amd64")
	for _, p := range placements {
		loop(p)
	}
	straight("64+12")
	Generate()
}

// FuncName returns the generated function's name for placement p.
func funcName(p string) string {
	return "loop_" + strings.NewReplacer("+", "_").Replace(p)
}

// loop emits func(n uint64) uint64 returning 3*n·8 after n iterations of
// eight dependent ADDQ $3 instructions (a 32+ byte body).
func loop(p string) {
	a, err := asmalign.Parse(p)
	if err != nil {
		panic(err)
	}
	TEXT(funcName(p), NOSPLIT, "func(n uint64) uint64")
	Doc(fmt.Sprintf("%s runs a loop whose head is placed at align=%s.", funcName(p), p))
	n := Load(Param("n"), GP64())
	acc := GP64()
	XORQ(acc, acc)
	a.Emit()
	Label("loop")
	for i := 0; i < 8; i++ {
		ADDQ(Imm(3), acc)
	}
	DECQ(n)
	JNZ(LabelRef("loop"))
	Store(acc, ReturnIndex(0))
	RET()
}

// straight emits func(n uint64) uint64 returning n+8·3 from a straight-line
// block labelled "body" (no loop), placed at p and entered by a jump over
// the padding, as fully unrolled kernels are.
func straight(p string) {
	a, err := asmalign.Parse(p)
	if err != nil {
		panic(err)
	}
	name := "block_" + strings.NewReplacer("+", "_").Replace(p)
	TEXT(name, NOSPLIT, "func(n uint64) uint64")
	Doc(fmt.Sprintf("%s runs a straight-line block placed at align=%s.", name, p))
	n := Load(Param("n"), GP64())
	JMP(LabelRef("body"))
	a.Emit()
	Label("body")
	for i := 0; i < 8; i++ {
		ADDQ(Imm(3), n)
	}
	Store(n, ReturnIndex(0))
	RET()
}
