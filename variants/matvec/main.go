// Command matvec generates the NTT-domain row products of ML-DSA (-scheme
// dsa, for kernels/mldsa) and ML-KEM (-scheme kem, for kernels/mlkem) with
// avo (ML-KEM's: see kem.go). mldsa.matvec sets acc to Σ_{j<l} a[j] ∘ v[j],
// canonical, for a row a of the matrix Â and a vector v of l polynomials,
// each stored contiguously — the inner loop of Â·NTT(y) (signing), of
// Â·NTT(s1) (key generation) and of Â·NTT(z) (verification).
//
// Instead of one MulNTT per term (each a Montgomery product, a product by
// R² and a canonicalization) and lazy sums in Go, it multiplies with
// VPMULDQ (even and odd lanes, 46-bit products), sums the l products of
// a coefficient in 64 bits (below 7·q² < 2^49 < q·2^31), reduces the sum
// once (Montgomery: sum·2^−32 in (−q, q)), multiplies by R² = 2^64 mod q
// in Montgomery form to undo the 2^−32 (Shoup's trick: a VPMULLD by
// R²·q⁻¹ for the quotient) and canonicalizes. The knobs are the tier
// (ymm, 8 lanes; zmm, 16 lanes) and the vectors per loop iteration.
//
//	go run ../../variants/matvec -scheme dsa -out matvec_amd64.s -stubs zmatvec_stubs_amd64.go -pkg mldsa -table zmatvec_variants_amd64.go -prod zmatvec_prod_amd64.go -ct ../../lab/ct/zstatic_matvec_mldsa.go
package main

import (
	"flag"
	"fmt"
	"math/big"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/ctcheck"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

var scheme = flag.String("scheme", "dsa", "dsa (mldsa.matvec) or kem (mlkem.mulcache, mlkem.matvec)")

// q is the ML-DSA modulus.
const q = 8380417

// Montgomery constants for R = 2^32, computed from first principles:
// qinv = q⁻¹ mod 2^32 and r2 = 2^64 mod q, with r2·qinv mod 2^32 for
// Shoup's quotient.
var (
	qinv, r2, r2qinv uint32
)

func init() {
	Q := big.NewInt(q)
	two32 := new(big.Int).Lsh(big.NewInt(1), 32)
	qinv = uint32(new(big.Int).ModInverse(Q, two32).Uint64())
	r2 = uint32(new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(1), 64), Q).Uint64())
	r2qinv = r2 * qinv
}

// dsaMatVec is mldsa.matvec.
var dsaMatVec = famgen.Kernel{Name: "mldsa.matvec", Prefix: "matvec", Var: "asmMatVec",
	Type: "func(acc, a, v *[256]int32, l int)", LoopLabel: "loop"}

func main() {
	flag.Parse() // for -scheme
	if *scheme == "kem" {
		famgen.Run(famgen.Family{Command: "matvec", PkgPath: "github.com/tunelab/tunelab/kernels/mlkem",
			Consts: "kemmatvecconst", Secrets: secrets, Build: buildKEM})
		return
	}
	famgen.Run(famgen.Family{Command: "matvec", PkgPath: "github.com/tunelab/tunelab/kernels/mldsa",
		Consts: "matvecconst", Secrets: secrets, Build: buildDSA})
}

// secrets classifies the row products' parameters for the constant-time
// check (-ct): the accumulator and both factors are secret (a row of Â is
// public, but the same argument carries ŝ in ML-KEM's decryption, and the
// vectors are ŝ1, ŷ, ŝ, ŷ or their multiplication caches); the vector
// length (l, k) and the stride of a row are public.
var secrets = ctcheck.Args{Secret: []string{"acc", "a", "v", "c", "b"}, Public: []string{"l", "k", "stride"}}

// buildDSA builds mldsa.matvec's variants: per tier, per unroll.
func buildDSA(b *famgen.Builder) {
	b.Unrolls(dsaMatVec, map[string][]int{"avx2": {1, 2}, "avx512": {1, 2}},
		func(s *vecgen.ISA, u int) { build(&gen{isa: s, c: b.Consts}, u) })
}

// A gen emits one function of a tier.
type gen struct {
	isa *vecgen.ISA
	c   *vecgen.Consts
}

func (g *gen) splat(v uint32) operand.Mem {
	l := make([]uint32, g.isa.Lanes(32))
	for i := range l {
		l[i] = v
	}
	return g.c.Lanes32(l...)
}

// build emits one row product: per iteration unroll vectors of
// coefficients; per vector the l products summed in 64 bits (even and
// odd lanes apart), one Montgomery reduction, the product by R² and the
// canonicalization.
func build(g *gen, unroll int) {
	acc, a, v, l := GP64(), GP64(), GP64(), GP64()
	Load(Param("acc"), acc)
	Load(Param("a"), a)
	Load(Param("v"), v)
	Load(Param("l"), l)
	qv := g.isa.Load(g.splat(q))
	qi := g.isa.Load(g.splat(qinv))
	step := g.isa.Bytes * unroll
	n := GP64()
	MOVQ(operand.U64(uint64(1024/step)), n)
	Label("loop")
	for u := range unroll {
		off := u * g.isa.Bytes
		even, odd := g.isa.Vec(), g.isa.Vec()
		// j = 0 initializes the sums; then a loop over the other terms.
		x, y := g.isa.Load(operand.Mem{Base: a, Disp: off}), g.isa.Load(operand.Mem{Base: v, Disp: off})
		VPMULDQ(y, x, even)
		VPSRLQ(operand.U8(32), x, x)
		VPSRLQ(operand.U8(32), y, y)
		VPMULDQ(y, x, odd)
		pa, pv, j := GP64(), GP64(), GP64()
		LEAQ(operand.Mem{Base: a, Disp: off + 1024}, pa)
		LEAQ(operand.Mem{Base: v, Disp: off + 1024}, pv)
		MOVQ(l, j)
		inner, last := fmt.Sprintf("term%d", u), fmt.Sprintf("sum%d", u)
		DECQ(j)
		JZ(operand.LabelRef(last))
		Label(inner)
		x, y = g.isa.Load(operand.Mem{Base: pa}), g.isa.Load(operand.Mem{Base: pv})
		p := g.isa.Vec()
		VPMULDQ(y, x, p)
		VPADDQ(p, even, even)
		VPSRLQ(operand.U8(32), x, x)
		VPSRLQ(operand.U8(32), y, y)
		VPMULDQ(y, x, p)
		VPADDQ(p, odd, odd)
		ADDQ(operand.U32(1024), pa)
		ADDQ(operand.U32(1024), pv)
		DECQ(j)
		JNZ(operand.LabelRef(inner))
		Label(last)
		r := g.reduce(even, odd, qv, qi)
		r = g.timesR2(r, qv)
		m := g.isa.Vec()
		VPSRAD(operand.U8(31), r, m)
		g.and(qv, m, m)
		VPADDD(m, r, r)
		g.isa.Store(r, operand.Mem{Base: acc, Disp: off})
	}
	ADDQ(operand.U32(uint64(step)), acc)
	ADDQ(operand.U32(uint64(step)), a)
	ADDQ(operand.U32(uint64(step)), v)
	DECQ(n)
	JNZ(operand.LabelRef("loop"))
	VZEROUPPER()
	RET()
}

func (g *gen) and(b, x, dst reg.VecVirtual) {
	if g.isa.EVEX() {
		VPANDD(b, x, dst)
	} else {
		VPAND(b, x, dst)
	}
}

// reduce returns the Montgomery reductions of the 64-bit sums in even
// (lanes 0, 2, ...) and odd (lanes 1, 3, ..., in the even positions), as
// dwords in order: t = low32(s)·q⁻¹, (s − t·q)/2^32 in (−q, q).
func (g *gen) reduce(even, odd, qv, qi reg.VecVirtual) reg.VecVirtual {
	for _, s := range []reg.VecVirtual{even, odd} {
		t := g.isa.Vec()
		VPMULDQ(qi, s, t)
		VPMULDQ(qv, t, t)
		VPSUBQ(t, s, s)
	}
	return g.merge(even, odd)
}

// merge returns the high dwords of even's qwords in the even lanes and
// odd's in the odd lanes.
func (g *gen) merge(even, odd reg.VecVirtual) reg.VecVirtual {
	r := g.isa.Vec()
	VMOVSHDUP(even, r)
	if g.isa.EVEX() {
		k := K()
		m := GP32()
		MOVL(operand.U32(0xaaaa), m)
		KMOVW(m, k)
		VMOVDQA32(odd, k, r)
	} else {
		VPBLENDD(operand.U8(0xaa), odd, r, r)
	}
	return r
}

// timesR2 returns x·R²·2^−32 = x·2^32 mod q (in (−q, q)) for x in
// (−q, q): Montgomery with the quotient t = x·(R²·q⁻¹) mod 2^32 from one
// VPMULLD, (x·R² − t·q)/2^32 from the even and odd 64-bit products.
func (g *gen) timesR2(x, qv reg.VecVirtual) reg.VecVirtual {
	t := g.isa.Vec()
	VPMULLD(g.splat(r2qinv), x, t)
	xo, to := g.isa.Vec(), g.isa.Vec()
	VPSRLQ(operand.U8(32), x, xo)
	VPSRLQ(operand.U8(32), t, to)
	r2v := g.isa.Load(g.splat(r2))
	VPMULDQ(r2v, x, x)
	VPMULDQ(r2v, xo, xo)
	VPMULDQ(qv, t, t)
	VPMULDQ(qv, to, to)
	VPSUBQ(t, x, x)
	VPSUBQ(to, xo, xo)
	return g.merge(x, xo)
}
