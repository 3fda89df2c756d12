// Command align generates, for lab/align, a code footprint that evicts the instruction
// cache and the decoded-op cache (AMD op-cache, Intel DSB) when executed.
//
// The footprint is Blocks blocks of BlockBytes bytes, each a run of
// independent 4-byte ADDQ instructions ending in a jump to the next block,
// so that every 64-byte line of it is fetched and decoded. At 128 KiB it is
// four times a 32 KiB L1I and several times any current op-cache (Zen 4:
// 6.75K ops; Golden Cove DSB: 4K ops).
package main

import (
	"fmt"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

const (
	// Blocks is the number of 64-byte blocks in the footprint.
	Blocks = 2048
	// addsPerBlock ADDQ $1 (4 bytes each) + JMP rel8 (2 bytes) + PCALIGN
	// padding fill one 64-byte line per block.
	addsPerBlock = 14
)

func main() {
	ConstraintExpr("!purego")
	TEXT("evictFootprint", NOSPLIT, "func() uint64")
	Doc(fmt.Sprintf("evictFootprint executes %d KiB of straight-line code in %d cache-line blocks.", Blocks*64/1024, Blocks))
	acc := []reg.GPVirtual{GP64(), GP64(), GP64(), GP64()}
	for _, r := range acc {
		XORQ(r, r)
	}
	for b := 0; b < Blocks; b++ {
		block(b, acc)
	}
	Label("done")
	for _, r := range acc[1:] {
		ADDQ(r, acc[0])
	}
	Store(acc[0], ReturnIndex(0))
	RET()
	Generate()
}

// block emits one cache-line block: independent adds spread over four
// accumulators, then a jump to the next block.
func block(b int, acc []reg.GPVirtual) {
	Instruction(rawPCALIGN())
	Label(fmt.Sprintf("b%d", b))
	for i := 0; i < addsPerBlock; i++ {
		ADDQ(Imm(1), acc[i%len(acc)])
	}
	next := "done"
	if b+1 < Blocks {
		next = fmt.Sprintf("b%d", b+1)
	}
	JMP(LabelRef(next))
}
