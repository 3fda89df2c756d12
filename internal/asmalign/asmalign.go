// Package asmalign places loop heads of generated assembly at a chosen
// position relative to a cache line. Every family's avo generator uses it
// for the "align" knob.
//
// A loop head can be left where it falls ("none"), aligned to 16, 32 or 64
// bytes, or placed at 64·k + offset for an offset in 1..63 ("64+offset"):
// the latter emits `PCALIGN $64` followed by exactly offset bytes of the
// recommended multi-byte NOP encodings (Intel SDM vol. 2B, NOP; AMD APM
// vol. 3, NOP). The Go assembler aligns a function that contains
// `PCALIGN $64` to 64 bytes itself, so the requested offset is achieved in
// the final binary; tests elsewhere verify this from the running binary.
package asmalign

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// An Align is a loop-head placement: Boundary 0 means unaligned; otherwise
// the head is placed Offset bytes past a Boundary-byte boundary (Offset is
// non-zero only with Boundary 64).
type Align struct {
	Boundary int
	Offset   int
}

// None leaves the loop head where it falls.
var None = Align{}

// Parse reads a knob value: "none", "16", "32", "64" or "64+N" with N in 0..63.
func Parse(s string) (Align, error) {
	if s == "none" {
		return None, nil
	}
	base, off, hasOff := strings.Cut(s, "+")
	b, err := strconv.Atoi(base)
	if err != nil || (b != 16 && b != 32 && b != 64) {
		return None, fmt.Errorf("parsing alignment %q: want none, 16, 32, 64 or 64+N", s)
	}
	a := Align{Boundary: b}
	if hasOff {
		n, err := strconv.Atoi(off)
		if err != nil || b != 64 || n < 0 || n > 63 {
			return None, fmt.Errorf("parsing alignment %q: offset must be 0..63 after 64+", s)
		}
		a.Offset = n
	}
	return a, nil
}

// At returns the placement 64·k + offset.
func At(offset int) Align { return Align{Boundary: 64, Offset: offset} }

// String returns the knob value, the inverse of Parse.
func (a Align) String() string {
	switch {
	case a.Boundary == 0:
		return "none"
	case a.Offset != 0:
		return fmt.Sprintf("%d+%d", a.Boundary, a.Offset)
	default:
		return strconv.Itoa(a.Boundary)
	}
}

// Emit emits the alignment directive and padding into the current avo
// function. Call it immediately before the loop-head Label.
func (a Align) Emit() {
	if a.Boundary == 0 {
		return
	}
	build.Commentf("loop head placed at %d·k+%d", a.Boundary, a.Offset)
	raw("PCALIGN", operand.Imm(uint64(a.Boundary)))
	for _, b := range NOPBytes(a.Offset) {
		raw("BYTE", operand.Imm(uint64(b)))
	}
}

// raw emits an instruction avo does not model; it has no register operands,
// so liveness and allocation are unaffected.
func raw(opcode string, ops ...operand.Op) {
	build.Instruction(&ir.Instruction{Opcode: opcode, Operands: ops})
}

// nops are the recommended multi-byte NOP encodings of length 1..9.
var nops = [...][]byte{
	1: {0x90},
	2: {0x66, 0x90},
	3: {0x0f, 0x1f, 0x00},
	4: {0x0f, 0x1f, 0x40, 0x00},
	5: {0x0f, 0x1f, 0x44, 0x00, 0x00},
	6: {0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00},
	7: {0x0f, 0x1f, 0x80, 0x00, 0x00, 0x00, 0x00},
	8: {0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
	9: {0x66, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00},
}

// NOPBytes returns exactly n bytes of padding made of as few multi-byte NOP
// instructions as possible (at most 9 bytes each).
func NOPBytes(n int) []byte {
	var out []byte
	for n > 0 {
		k := min(n, 9)
		out = append(out, nops[k]...)
		n -= k
	}
	return out
}
