package avogen

import (
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	"github.com/mmcloughlin/avo/operand"
)

// emit builds a small function in avo's global context: a dependent chain
// on three virtual registers, padded by pad bytes before its loop.
func emit(name string, pad int, extra bool) {
	build.TEXT(name, 0, "func(x uint64) uint64")
	x := build.Load(build.Param("x"), build.GP64())
	y, z := build.GP64(), build.GP64()
	build.MOVQ(x, y)
	for range pad {
		build.Instruction(&ir.Instruction{Opcode: "BYTE", Operands: []operand.Op{operand.Imm(0x90)}})
	}
	build.Label("loop")
	build.ADDQ(y, x)
	build.MOVQ(x, z)
	if extra {
		build.ADDQ(z, z)
	}
	build.ADDQ(z, y)
	build.Store(y, build.ReturnIndex(0))
	build.RET()
}

// code returns fn's instructions as assembly, padding left out.
func code(fn *ir.Function) string {
	var b strings.Builder
	for _, inst := range fn.Instructions() {
		if inst.Opcode == "BYTE" {
			continue
		}
		b.WriteString(inst.OpcodeWithSuffixes())
		for _, op := range inst.Operands {
			b.WriteString(" " + op.Asm())
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// TestCopiesShareTheAllocation compiles a base, an offset copy (same code,
// padding added) and a function of another shape, and checks that the
// copy is bound to exactly the base's registers and the other compiles
// on its own.
//
// avo's global context keeps the functions of earlier runs (-count) and
// tests: only the three emitted here are looked at.
func TestCopiesShareTheAllocation(t *testing.T) {
	f, err := File()
	if err != nil {
		t.Fatal(err)
	}
	before := len(f.Functions())
	emit("base", 0, false)
	emit("copy", 7, false)
	emit("other", 0, true)
	if f, err = File(); err != nil {
		t.Fatal(err)
	}
	fns := f.Functions()[before:]
	firsts, copies := byShape(fns)
	if len(firsts) != 2 || len(copies) != 1 || copies[0].own.fn.Name != "copy" || copies[0].first.fn.Name != "base" {
		t.Fatalf("shapes: %d firsts, copies %+v; want base and other first, copy a copy of base", len(firsts), copies)
	}
	if err := compileParallel(fns); err != nil {
		t.Fatal(err)
	}
	base, cp, other := code(fns[0]), code(fns[1]), code(fns[2])
	if base != cp {
		t.Errorf("copy's code differs from its base's:\n%s\nvs\n%s", cp, base)
	}
	if strings.Contains(base+other, "virtual") {
		t.Errorf("virtual registers left after compilation:\n%s\n%s", base, other)
	}
	if other == base {
		t.Error("a function of another shape got the base's code")
	}
}
