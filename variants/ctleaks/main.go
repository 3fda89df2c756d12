// Command ctleaks generates the planted timing leaks of lab/ct/leaks, the
// fixtures `tunelab ct --selftest` requires both constant-time checks to
// flag, built with avo like every variant and checked by the same static
// pass (its findings go to lab/ct/zstatic_leaks.go, marked fixtures):
//
//   - lookupTable: a table lookup indexed by a secret byte, the classic
//     cache-timing leak of table-based AES;
//   - earlyExit: a compare that returns at the first differing byte;
//   - secretDivide: divisions by secret divisors (KyberSlash divided a
//     secret by a public q; a secret divisor leaks the same way);
//   - ctCompare: the clean control, a compare that ORs every byte's XOR.
//
// Each leak is sized to be measurable in few measurements: the table
// spans a page per entry (1 MiB), the compare 256 bytes, the division is
// a chain of eight.
package main

import (
	"log"

	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"

	"github.com/tunelab/tunelab/variants/internal/avogen"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
)

// secrets classifies the fixtures' parameters: the key, the compared
// buffers and the divisors are secret; the table and the dividends are
// public.
var secrets = ctcheck.Args{Secret: []string{"key", "a", "b", "d"}, Public: []string{"table", "x"}}

func main() {
	ConstraintExpr("!purego")
	lookupTable()
	earlyExit()
	secretDivide()
	ctCompare()
	avogen.Generate()
	if err := ctcheck.CheckFixtures(secrets); err != nil {
		log.Fatal(err)
	}
	if err := ctcheck.Write(); err != nil {
		log.Fatal(err)
	}
}

// lookupTable: acc ^= table[key[i]·4096] for each of the 16 key bytes.
func lookupTable() {
	TEXT("lookupTable", NOSPLIT, "func(key *[16]byte, table *[1 << 20]byte) uint64")
	Doc("lookupTable XORs table[key[i]<<12] over the 16 key bytes: a lookup indexed by a secret byte.")
	k := Load(Param("key"), GP64())
	t := Load(Param("table"), GP64())
	acc, idx := GP64(), GP64()
	XORQ(acc, acc)
	for i := 0; i < 16; i++ {
		MOVBQZX(Mem{Base: k, Disp: i}, idx)
		SHLQ(U8(12), idx)
		XORQ(Mem{Base: t, Index: idx, Scale: 1}, acc)
	}
	Store(acc, ReturnIndex(0))
	RET()
}

// earlyExit: 1 if a == b (256 bytes), else 0, returning at the first
// differing byte.
func earlyExit() {
	TEXT("earlyExit", NOSPLIT, "func(a, b *[256]byte) uint64")
	Doc("earlyExit compares a and b byte by byte and returns 0 at the first difference, 1 if equal.")
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	i, x, r := GP64(), GP64(), GP64()
	XORQ(i, i)
	XORQ(r, r)
	Label("loop")
	MOVBQZX(Mem{Base: pa, Index: i, Scale: 1}, x)
	CMPB(x.As8(), Mem{Base: pb, Index: i, Scale: 1})
	JNE(LabelRef("done"))
	INCQ(i)
	CMPQ(i, U32(256))
	JB(LabelRef("loop"))
	INCQ(r)
	Label("done")
	Store(r, ReturnIndex(0))
	RET()
}

// secretDivide: acc = Σ (x[i] + acc) / d[i] over 8 words, each division
// depending on the previous one.
func secretDivide() {
	TEXT("secretDivide", NOSPLIT, "func(x, d *[8]uint64) uint64")
	Doc("secretDivide sums a dependent chain of eight divisions x[i]/d[i]: a secret divisor.")
	px := Load(Param("x"), GP64())
	pd := Load(Param("d"), GP64())
	acc := GP64()
	XORQ(acc, acc)
	for i := 0; i < 8; i++ {
		MOVQ(Mem{Base: px, Disp: 8 * i}, RAX)
		XORQ(acc, RAX)
		XORQ(RDX, RDX)
		DIVQ(Mem{Base: pd, Disp: 8 * i})
		ADDQ(RAX, acc)
	}
	Store(acc, ReturnIndex(0))
	RET()
}

// ctCompare: 1 if a == b (256 bytes), else 0, in constant time: the OR of
// every byte's XOR, turned into a bit without a branch.
func ctCompare() {
	TEXT("ctCompare", NOSPLIT, "func(a, b *[256]byte) uint64")
	Doc("ctCompare compares a and b in constant time: the OR of all XORs, 1 if zero.")
	pa := Load(Param("a"), GP64())
	pb := Load(Param("b"), GP64())
	acc, x := GP64(), GP64()
	XORQ(acc, acc)
	for i := 0; i < 256; i += 8 {
		MOVQ(Mem{Base: pa, Disp: i}, x)
		XORQ(Mem{Base: pb, Disp: i}, x)
		ORQ(x, acc)
	}
	// acc == 0 -> 1, else 0, without a branch: NEG sets CF = (acc != 0),
	// SBB turns it into 0 or -1, INC into 1 or 0.
	r := GP64()
	NEGQ(acc)
	SBBQ(r, r)
	INCQ(r)
	Store(r, ReturnIndex(0))
	RET()
}
