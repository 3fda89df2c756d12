package ctcheck_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/ir"
	. "github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/pass"
	"github.com/mmcloughlin/avo/printer"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/variants/internal/ctcheck"
)

// compiled builds one function with avo in a fresh context, compiles it
// (register allocation included) and returns it with the generated
// assembly text.
func compiled(t *testing.T, sig string, body func(c *build.Context)) (*ir.Function, []byte) {
	t.Helper()
	c := build.NewContext()
	c.Function("f")
	c.SignatureExpr(sig)
	body(c)
	f, err := c.Result()
	if err != nil {
		t.Fatalf("building %s: %v", sig, err)
	}
	if err := pass.Compile.Execute(f); err != nil {
		t.Fatalf("compiling %s: %v", sig, err)
	}
	src, err := printer.NewGoAsm(printer.NewDefaultConfig()).Print(f)
	if err != nil {
		t.Fatalf("printing: %v", err)
	}
	return f.Functions()[0], src
}

// analyze runs ctcheck.Analyze and maps the findings to lines of the printed
// assembly, failing the test on an error.
func analyze(t *testing.T, fn *ir.Function, src []byte, args ctcheck.Args) []ctcheck.Finding {
	t.Helper()
	fs, err := ctcheck.Analyze(fn, args)
	if err != nil {
		t.Fatalf("ctcheck.Analyze: %v", err)
	}
	lines, err := ctcheck.ParseAsm(src).Lines(fn)
	if err != nil {
		t.Fatalf("Lines: %v", err)
	}
	for i := range fs {
		fs[i].Line = lines[fs[i].Index]
	}
	return fs
}

func describe(fs []ctcheck.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "\n  %s line %d %q: %s", f.Kind, f.Line, f.Instr, f.What)
	}
	return b.String()
}

// wantKinds checks that fs holds exactly the findings of kinds at the
// instructions whose text starts with the given opcodes, in order.
func wantFindings(t *testing.T, fs []ctcheck.Finding, want ...string) {
	t.Helper()
	if len(fs) != len(want) {
		t.Fatalf("got %d findings, want %d (%v):%s", len(fs), len(want), want, describe(fs))
	}
	for i, w := range want {
		kind, op, _ := strings.Cut(w, " ")
		if string(fs[i].Kind) != kind || !strings.HasPrefix(fs[i].Instr, op) {
			t.Errorf("finding %d is %s at %q, want %s at %s...:%s", i, fs[i].Kind, fs[i].Instr, kind, op, describe(fs))
		}
	}
}

func TestCleanFunction(t *testing.T) {
	// a[i] += a[i]*k for public i < 4: loads, arithmetic, stores, a
	// counted loop.
	fn, src := compiled(t, "func(a *[4]uint64, k uint64)", func(c *build.Context) {
		p := c.Load(c.Param("a"), c.GP64())
		k := c.Load(c.Param("k"), c.GP64())
		i := c.GP64()
		c.XORQ(i, i)
		c.Label("loop")
		x := c.GP64()
		c.MOVQ(Mem{Base: p, Index: i, Scale: 8}, x)
		c.IMULQ(k, x)
		c.ADDQ(x, Mem{Base: p, Index: i, Scale: 8})
		c.INCQ(i)
		c.CMPQ(i, U8(4))
		c.JB(LabelRef("loop"))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"a", "k"}}))
}

func TestTableLookup(t *testing.T) {
	// out = table[key[0]]: the index is a secret byte.
	fn, src := compiled(t, "func(key *[16]byte, table *[256]uint64) uint64", func(c *build.Context) {
		k := c.Load(c.Param("key"), c.GP64())
		tab := c.Load(c.Param("table"), c.GP64())
		b := c.GP64()
		c.MOVBQZX(Mem{Base: k}, b)
		x := c.GP64()
		c.MOVQ(Mem{Base: tab, Index: b, Scale: 8}, x)
		c.Store(x, c.ReturnIndex(0))
		c.RET()
	})
	fs := analyze(t, fn, src, ctcheck.Args{Secret: []string{"key"}, Public: []string{"table"}})
	wantFindings(t, fs, "address MOVQ")
	if !strings.Contains(fs[0].Why(fn.Instructions(), nil), "MOVBQZX") {
		t.Errorf("finding does not name the secret's origin: %s", fs[0].Why(fn.Instructions(), nil))
	}
}

func TestEarlyExitCompare(t *testing.T) {
	// for i in 0..31: if a[i] != b[i] return 0; return 1.
	fn, src := compiled(t, "func(a, b *[32]byte) uint64", func(c *build.Context) {
		pa := c.Load(c.Param("a"), c.GP64())
		pb := c.Load(c.Param("b"), c.GP64())
		i, x, r := c.GP64(), c.GP64(), c.GP64()
		c.XORQ(i, i)
		c.XORQ(r, r)
		c.Label("loop")
		c.MOVBQZX(Mem{Base: pa, Index: i, Scale: 1}, x)
		c.CMPB(x.As8(), Mem{Base: pb, Index: i, Scale: 1})
		c.JNE(LabelRef("done"))
		c.INCQ(i)
		c.CMPQ(i, U8(32))
		c.JB(LabelRef("loop"))
		c.INCQ(r)
		c.Label("done")
		c.Store(r, c.ReturnIndex(0))
		c.RET()
	})
	fs := analyze(t, fn, src, ctcheck.Args{Secret: []string{"a", "b"}})
	wantFindings(t, fs, "branch JNE")
	if fs[0].What != "flags ZF" {
		t.Errorf("branch finding says %q, want the flags ZF", fs[0].What)
	}
}

func TestSecretDivisor(t *testing.T) {
	fn, src := compiled(t, "func(d *uint64) uint64", func(c *build.Context) {
		p := c.Load(c.Param("d"), c.GP64())
		c.MOVQ(Mem{Base: p}, RCX)
		c.MOVQ(I32(-1), RAX)
		c.XORQ(RDX, RDX)
		c.DIVQ(RCX)
		c.Store(RAX, c.ReturnIndex(0))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"d"}}), "latency DIVQ")
}

func TestSecretDividend(t *testing.T) {
	// KyberSlash: a public divisor, a secret dividend.
	fn, src := compiled(t, "func(x *uint64, q uint64) uint64", func(c *build.Context) {
		p := c.Load(c.Param("x"), c.GP64())
		c.Load(c.Param("q"), RCX)
		c.MOVQ(Mem{Base: p}, RAX)
		c.XORQ(RDX, RDX)
		c.DIVQ(RCX)
		c.Store(RAX, c.ReturnIndex(0))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"x"}, Public: []string{"q"}}), "latency DIVQ")
}

func TestPublicDivision(t *testing.T) {
	fn, src := compiled(t, "func(n, q uint64) uint64", func(c *build.Context) {
		c.Load(c.Param("n"), RAX)
		c.Load(c.Param("q"), RCX)
		c.XORQ(RDX, RDX)
		c.DIVQ(RCX)
		c.Store(RAX, c.ReturnIndex(0))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Public: []string{"n", "q"}}))
}

func TestLoopCounterAfterSecretCarry(t *testing.T) {
	// ADCQ on secrets leaves CF secret; DECQ sets ZF from the public
	// counter and JNZ reads only ZF.
	fn, src := compiled(t, "func(h *[2]uint64, m []byte)", func(c *build.Context) {
		p := c.Load(c.Param("h"), c.GP64())
		mp := c.Load(c.Param("m").Base(), c.GP64())
		n := c.Load(c.Param("m").Len(), c.GP64())
		c.SHRQ(U8(4), n)
		c.JZ(LabelRef("done"))
		h0, h1 := c.GP64(), c.GP64()
		c.MOVQ(Mem{Base: p}, h0)
		c.MOVQ(Mem{Base: p, Disp: 8}, h1)
		c.Label("loop")
		c.ADDQ(Mem{Base: mp}, h0)
		c.ADCQ(Mem{Base: mp, Disp: 8}, h1)
		c.LEAQ(Mem{Base: mp, Disp: 16}, mp) // leaves the flags
		c.DECQ(n)
		c.JNZ(LabelRef("loop"))
		c.MOVQ(h0, Mem{Base: p})
		c.MOVQ(h1, Mem{Base: p, Disp: 8})
		c.Label("done")
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"h", "m"}}))
}

func TestBranchOnCarry(t *testing.T) {
	// JCS after ADCQ: the carry of a secret sum.
	fn, src := compiled(t, "func(h *[2]uint64)", func(c *build.Context) {
		p := c.Load(c.Param("h"), c.GP64())
		x := c.GP64()
		c.MOVQ(Mem{Base: p}, x)
		c.ADDQ(Mem{Base: p, Disp: 8}, x)
		c.JCS(LabelRef("done"))
		c.MOVQ(x, Mem{Base: p})
		c.Label("done")
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"h"}}), "branch JCS")
}

func TestSecretScalarArgument(t *testing.T) {
	fn, src := compiled(t, "func(x uint64) uint64", func(c *build.Context) {
		x := c.Load(c.Param("x"), c.GP64())
		c.TESTQ(x, x)
		c.JZ(LabelRef("zero"))
		c.Store(x, c.ReturnIndex(0))
		c.Label("zero")
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"x"}}), "branch JZ")
	fn, src = compiled(t, "func(x uint64) uint64", func(c *build.Context) {
		x := c.Load(c.Param("x"), c.GP64())
		c.TESTQ(x, x)
		c.JZ(LabelRef("zero"))
		c.Store(x, c.ReturnIndex(0))
		c.Label("zero")
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Public: []string{"x"}}))
}

func TestConstantTimeSelect(t *testing.T) {
	// CMOV on secret flags is the constant-time way to select; XOR of a
	// register with itself yields a public zero whatever it held.
	fn, src := compiled(t, "func(a *[2]uint64) uint64", func(c *build.Context) {
		p := c.Load(c.Param("a"), c.GP64())
		x, y := c.GP64(), c.GP64()
		c.MOVQ(Mem{Base: p}, x)
		c.MOVQ(Mem{Base: p, Disp: 8}, y)
		c.CMPQ(x, y)
		c.CMOVQCS(y, x)
		c.XORQ(y, y)
		c.CMPQ(y, U8(0))
		c.JNE(LabelRef("done"))
		c.Store(x, c.ReturnIndex(0))
		c.Label("done")
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"a"}}))
}

func TestTaintThroughSpill(t *testing.T) {
	// A secret byte spilled to the frame, the register reused for a
	// public value, the byte reloaded and used as an index.
	fn, src := compiled(t, "func(key *[16]byte, table *[256]uint64) uint64", func(c *build.Context) {
		slot := c.AllocLocal(8)
		k := c.Load(c.Param("key"), RSI)
		c.Load(c.Param("table"), RDI)
		c.MOVBQZX(Mem{Base: k}, RAX)
		c.MOVQ(RAX, slot)
		c.MOVQ(U32(7), RAX)
		c.MOVQ(slot, RBX)
		c.MOVQ(Mem{Base: RDI, Index: RAX, Scale: 8}, RCX) // public index
		c.MOVQ(Mem{Base: RDI, Index: RBX, Scale: 8}, RDX) // secret, from the spill
		c.ADDQ(RCX, RDX)
		c.Store(RDX, c.ReturnIndex(0))
		c.RET()
	})
	fs := analyze(t, fn, src, ctcheck.Args{Secret: []string{"key"}, Public: []string{"table"}})
	wantFindings(t, fs, "address MOVQ")
	if !strings.Contains(fs[0].Instr, "(DI)(BX*8)") {
		t.Errorf("flagged %q, want the load indexed by the reloaded spill", fs[0].Instr)
	}
}

func TestSpillOverwrittenByPublic(t *testing.T) {
	// A slot that held a secret, overwritten by a public counter: the
	// reloaded counter is public again (a strong update), so the loop
	// branch on it is no finding.
	fn, src := compiled(t, "func(key *[8]uint64, n uint64)", func(c *build.Context) {
		slot := c.AllocLocal(8)
		k := c.Load(c.Param("key"), RSI)
		c.MOVQ(Mem{Base: k}, RAX)
		c.MOVQ(RAX, slot)
		c.Load(c.Param("n"), RCX)
		c.MOVQ(RCX, slot)
		c.Label("loop")
		c.MOVQ(slot, RDX)
		c.DECQ(RDX)
		c.MOVQ(RDX, slot)
		c.JNZ(LabelRef("loop"))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"key"}, Public: []string{"n"}}))
}

func TestTaintThroughWrittenMemory(t *testing.T) {
	// A secret stored into public scratch memory makes loads from it
	// secret (memory the function writes).
	fn, src := compiled(t, "func(key *[8]byte, scratch *[8]uint64, table *[256]uint64) uint64", func(c *build.Context) {
		k := c.Load(c.Param("key"), RSI)
		s := c.Load(c.Param("scratch"), RDI)
		tab := c.Load(c.Param("table"), R8)
		c.MOVBQZX(Mem{Base: k}, RAX)
		c.MOVQ(RAX, Mem{Base: s, Disp: 16})
		c.MOVQ(Mem{Base: s, Disp: 24}, RBX)
		c.MOVQ(Mem{Base: tab, Index: RBX, Scale: 8}, RCX)
		c.Store(RCX, c.ReturnIndex(0))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"key"}, Public: []string{"scratch", "table"}}), "address MOVQ")
}

func TestTaintAcrossLoopBackEdge(t *testing.T) {
	// The index becomes secret only in the loop body's second half: the
	// fixed point carries it back to the head.
	fn, src := compiled(t, "func(key *[8]uint64, table *[256]uint64, n uint64)", func(c *build.Context) {
		k := c.Load(c.Param("key"), RSI)
		tab := c.Load(c.Param("table"), RDI)
		c.Load(c.Param("n"), RCX)
		c.XORQ(RAX, RAX)
		c.Label("loop")
		c.MOVQ(Mem{Base: tab, Index: RAX, Scale: 8}, RDX)
		c.MOVQ(Mem{Base: k}, RAX)
		c.ANDQ(U8(255), RAX)
		c.DECQ(RCX)
		c.JNZ(LabelRef("loop"))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"key"}, Public: []string{"table", "n"}}), "address MOVQ")
}

func TestVectorGatherIndex(t *testing.T) {
	// A gather whose index vector holds secrets.
	fn, src := compiled(t, "func(key *[4]uint64, table *[256]uint64, out *[4]uint64)", func(c *build.Context) {
		k := c.Load(c.Param("key"), RSI)
		tab := c.Load(c.Param("table"), RDI)
		o := c.Load(c.Param("out"), RDX)
		c.VMOVDQU(Mem{Base: k}, Y1)
		c.VPCMPEQQ(Y2, Y2, Y2)
		c.VPGATHERQQ(Y2, Mem{Base: tab, Index: Y1, Scale: 8}, Y3)
		c.VMOVDQU(Y3, Mem{Base: o})
		c.VZEROUPPER()
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"key", "out"}, Public: []string{"table"}}), "address VPGATHERQQ")
}

func TestUnclassifiedParameter(t *testing.T) {
	fn, _ := compiled(t, "func(a *[4]uint64, n int)", func(c *build.Context) { c.RET() })
	if _, err := ctcheck.Analyze(fn, ctcheck.Args{Secret: []string{"a"}}); err == nil || !strings.Contains(err.Error(), "parameter n") {
		t.Errorf("ctcheck.Analyze with n unclassified: error %v, want one naming parameter n", err)
	}
	if _, err := ctcheck.Analyze(fn, ctcheck.Args{Secret: []string{"a", "n"}, Public: []string{"n"}}); err == nil {
		t.Error("ctcheck.Analyze with n both secret and public: no error")
	}
}

func TestLinesMismatch(t *testing.T) {
	fn, src := compiled(t, "func(a *[4]uint64)", func(c *build.Context) {
		c.Load(c.Param("a"), c.GP64())
		c.RET()
	})
	broken := strings.Replace(string(src), "RET", "NOP", 1)
	if _, err := ctcheck.ParseAsm([]byte(broken)).Lines(fn); err == nil {
		t.Error("Lines on assembly that does not match the function: no error")
	}
	lines, err := ctcheck.ParseAsm(src).Lines(fn)
	if err != nil {
		t.Fatal(err)
	}
	all := strings.Split(string(src), "\n")
	for i, in := range fn.Instructions() {
		if got := strings.Fields(all[lines[i]-1])[0]; got != in.Opcode {
			t.Errorf("instruction %d (%s) mapped to line %d: %q", i, in.Opcode, lines[i], all[lines[i]-1])
		}
	}
}

func TestFramePointerRegister(t *testing.T) {
	// Scratch in the frame written through LEAQ (SP), SI with secrets; a
	// table pointer spilled to another slot stays public, so the load
	// through it is no finding; an index read back from the scratch is.
	fn, src := compiled(t, "func(a *[4]uint64, table *[256]uint64) uint64", func(c *build.Context) {
		c.AllocLocal(40)
		c.Load(c.Param("a"), RDI)
		c.Load(c.Param("table"), R8)
		c.LEAQ(Mem{Base: RSP}, RSI)
		c.MOVQ(R8, Mem{Base: RSP, Disp: 32})
		c.MOVQ(Mem{Base: RDI}, RAX)
		c.MOVQ(RAX, Mem{Base: RSI})
		c.MOVQ(RAX, Mem{Base: RSI, Disp: 8})
		c.ADDQ(U8(16), RSI)
		c.MOVQ(RAX, Mem{Base: RSI})
		c.MOVQ(Mem{Base: RSP, Disp: 32}, R9)
		c.MOVQ(Mem{Base: R9}, RBX)                       // public pointer: no finding
		c.MOVQ(Mem{Base: RSP, Disp: 16}, RCX)            // the secret written through SI+16
		c.MOVQ(Mem{Base: R9, Index: RCX, Scale: 8}, RDX) // finding
		c.ADDQ(RBX, RDX)
		c.Store(RDX, c.ReturnIndex(0))
		c.RET()
	})
	fs := analyze(t, fn, src, ctcheck.Args{Secret: []string{"a"}, Public: []string{"table"}})
	wantFindings(t, fs, "address MOVQ")
	if !strings.Contains(fs[0].Instr, "(CX*8)") {
		t.Errorf("flagged %q, want the load indexed by the scratch slot", fs[0].Instr)
	}
}

func TestSecretMaskOfMaskedLoad(t *testing.T) {
	// A masked load whose opmask comes from secret bits: which bytes are
	// read depends on the secret.
	fn, src := compiled(t, "func(key *[8]byte, buf *[64]byte, out *[8]uint64)", func(c *build.Context) {
		k := c.Load(c.Param("key"), RSI)
		b := c.Load(c.Param("buf"), RDI)
		o := c.Load(c.Param("out"), RDX)
		c.MOVBLZX(Mem{Base: k}, EAX)
		c.KMOVB(EAX, K1)
		c.VMOVDQU64_Z(Mem{Base: b}, K1, Z0)
		c.VMOVDQU64(Z0, Mem{Base: o})
		c.VZEROUPPER()
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"key", "out"}, Public: []string{"buf"}}), "address VMOVDQU64.Z")
}

func TestPartialWriteKeepsTaint(t *testing.T) {
	// Writing the low byte of a secret register leaves the rest secret;
	// writing its 32-bit half clears it (zero extension).
	fn, src := compiled(t, "func(key *[8]uint64, table *[256]uint64) uint64", func(c *build.Context) {
		k := c.Load(c.Param("key"), RSI)
		tab := c.Load(c.Param("table"), RDI)
		c.MOVQ(Mem{Base: k}, RAX)
		c.MOVB(U8(1), AL)
		c.MOVQ(Mem{Base: tab, Index: RAX, Scale: 8}, RBX) // finding
		c.MOVL(U32(3), EAX)
		c.MOVQ(Mem{Base: tab, Index: RAX, Scale: 8}, RCX) // public again
		c.ADDQ(RCX, RBX)
		c.Store(RBX, c.ReturnIndex(0))
		c.RET()
	})
	fs := analyze(t, fn, src, ctcheck.Args{Secret: []string{"key"}, Public: []string{"table"}})
	wantFindings(t, fs, "address MOVQ")
	if !strings.Contains(fs[0].Instr, "BX") {
		t.Errorf("flagged %q, want the load into BX", fs[0].Instr)
	}
}

func TestExchangeSwapsTaint(t *testing.T) {
	// XCHGQ moves the secret into the counter register: the branch on it
	// is a finding, the one on the exchanged public value is not.
	fn, src := compiled(t, "func(key *[8]uint64, n uint64)", func(c *build.Context) {
		k := c.Load(c.Param("key"), RSI)
		c.Load(c.Param("n"), RCX)
		c.MOVQ(Mem{Base: k}, RAX)
		c.XCHGQ(RAX, RCX)
		c.TESTQ(RAX, RAX) // the public n
		c.JZ(LabelRef("a"))
		c.Label("a")
		c.TESTQ(RCX, RCX) // the secret
		c.JZ(LabelRef("b"))
		c.Label("b")
		c.RET()
	})
	fs := analyze(t, fn, src, ctcheck.Args{Secret: []string{"key"}, Public: []string{"n"}})
	wantFindings(t, fs, "branch JZ")
	if fs[0].Instr != "JZ b" {
		t.Errorf("flagged %q, want the branch on the exchanged secret (JZ b)", fs[0].Instr)
	}
}

func TestFloatingPointDivision(t *testing.T) {
	fn, src := compiled(t, "func(x *[2]float64) float64", func(c *build.Context) {
		p := c.Load(c.Param("x"), RSI)
		c.MOVSD(Mem{Base: p}, X0)
		c.DIVSD(Mem{Base: p, Disp: 8}, X0)
		c.Store(X0, c.ReturnIndex(0))
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"x"}}), "latency DIVSD")
}

func TestCompareIntoSecretMaskRegister(t *testing.T) {
	// A compare with a memory operand writes K1: the old, secret K1 is no
	// write mask of that load (only a mask the instruction reads is). The
	// merge-masked subtraction of a constant from memory under the new,
	// secret K1 is a finding; under the same mask from a register it is
	// none.
	fn, src := compiled(t, "func(key *[16]uint32, c *[16]uint32, out *[16]uint32)", func(c *build.Context) {
		k := c.Load(c.Param("key"), RSI)
		cp := c.Load(c.Param("c"), RDI)
		o := c.Load(c.Param("out"), RDX)
		c.VMOVDQU32(Mem{Base: k}, Z0)
		c.VPCMPGTD(Mem{Base: cp}, Z0, K1)   // K1 secret
		c.VPCMPGTD(Mem{Base: cp}, Z0, K1)   // writes K1 again: no finding
		c.VPSUBD(Mem{Base: cp}, Z0, K1, Z0) // finding
		c.VMOVDQU32(Mem{Base: cp}, Z1)
		c.VPSUBD(Z1, Z0, K1, Z0) // register operands: none
		c.VMOVDQU32(Z0, Mem{Base: o})
		c.VZEROUPPER()
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"key", "out"}, Public: []string{"c"}}), "address VPSUBD")
}

func TestPublicDeclassifiesOneInstruction(t *testing.T) {
	// A rejection sampler's acceptance test: the compare's flags are
	// declassified, so the branch on them is no finding; the candidate
	// itself stays secret, so indexing a table with it still is.
	fn, src := compiled(t, "func(buf *[8]byte, table *[16]uint64, out *[8]uint64)", func(c *build.Context) {
		b := c.Load(c.Param("buf"), RSI)
		tab := c.Load(c.Param("table"), RDI)
		o := c.Load(c.Param("out"), RDX)
		c.MOVBQZX(Mem{Base: b}, RAX)
		c.Comment(ctcheck.PublicComment("which candidates are rejected, independent of the accepted values"))
		c.CMPQ(RAX, U8(15))
		c.JAE(LabelRef("done"))
		c.MOVQ(Mem{Base: tab, Index: RAX, Scale: 8}, RBX) // finding
		c.MOVQ(RBX, Mem{Base: o})
		c.Label("done")
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"buf", "out"}, Public: []string{"table"}}), "address MOVQ")
	ds, err := ctcheck.Declassifications(fn)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || !strings.HasPrefix(ds[0].Instr, "CMPQ") || !strings.Contains(ds[0].Why, "rejected") {
		t.Errorf("Declassifications = %+v, want the CMPQ with its reason", ds)
	}
	// Without the declassification the branch is a finding too.
	fn, src = compiled(t, "func(buf *[8]byte, out *[8]uint64)", func(c *build.Context) {
		b := c.Load(c.Param("buf"), RSI)
		o := c.Load(c.Param("out"), RDX)
		c.MOVBQZX(Mem{Base: b}, RAX)
		c.CMPQ(RAX, U8(15))
		c.JAE(LabelRef("done"))
		c.MOVQ(RAX, Mem{Base: o})
		c.Label("done")
		c.RET()
	})
	wantFindings(t, analyze(t, fn, src, ctcheck.Args{Secret: []string{"buf", "out"}}), "branch JAE")
}

func TestPublicNeedsAnInstruction(t *testing.T) {
	fn, _ := compiled(t, "func(buf *[8]byte)", func(c *build.Context) {
		c.Load(c.Param("buf"), RSI)
		c.Comment(ctcheck.PublicComment("nothing"))
		c.Label("here")
		c.RET()
		c.JMP(LabelRef("here"))
	})
	if _, err := ctcheck.Analyze(fn, ctcheck.Args{Secret: []string{"buf"}}); err == nil || !strings.Contains(err.Error(), "label") {
		t.Errorf("Analyze with a declassification before a label: %v, want an error", err)
	}
}
