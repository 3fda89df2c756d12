package main

import (
	"math/big"

	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
	"github.com/tunelab/tunelab/variants/internal/famgen"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// ML-KEM's row product: the base-case products of FIPS 203 Algorithm 12,
// (a0 + a1·X)(b0 + b1·X) mod X² − γ = (a0·b0 + a1·b1·γ) + (a0·b1 + a1·b0)·X,
// summed over a row. With a multiplication cache of each vector
// polynomial b (mlkem.mulcache, as mlkem-native's): B1 = (b0·R, b1·γ·R)
// and B2 = (b1·R, b0·R) per pair, R = 2^16 mod q, every product of a pair
// is one VPMADDWD — a0·B1 + a1·B1' = R·(a0·b0 + a1·b1·γ) in a dword, and
// likewise the X coefficient with B2 —, the k products of a dword are
// summed (below 4·2·q² < q·2^15), reduced once by a 16-bit Montgomery
// reduction (÷R, exact: the cache's factor R cancels) and canonicalized.

// kq is ML-KEM's modulus.
const kq = 3329

// kemConsts are the Montgomery constants of R = 2^16 and the gammas
// γ_i = 17^(2·BitRev7(i)+1) mod q, computed from first principles.
type kemConsts struct {
	qinv   uint16     // q⁻¹ mod 2^16
	r2     uint16     // R² mod q
	gammas [128]int64 // γ_i
}

func newKEMConsts() kemConsts {
	var k kemConsts
	Q := big.NewInt(kq)
	two16 := big.NewInt(1 << 16)
	k.qinv = uint16(new(big.Int).ModInverse(Q, two16).Uint64())
	k.r2 = uint16(new(big.Int).Mod(new(big.Int).Lsh(big.NewInt(1), 32), Q).Uint64())
	for i := range 128 {
		br := 0
		for b := range 7 {
			br |= (i >> b & 1) << (6 - b)
		}
		k.gammas[i] = new(big.Int).Exp(big.NewInt(17), big.NewInt(int64(2*br+1)), Q).Int64()
	}
	return k
}

// kemMulCache and kemMatVec are mlkem.mulcache (straight-line code, no
// loop) and mlkem.matvec.
var (
	kemMulCache = famgen.Kernel{Name: "mlkem.mulcache", Prefix: "mulcache", Var: "asmMulCache",
		Type: "func(c *[512]int16, b *[256]int16)"}
	kemMatVec = famgen.Kernel{Name: "mlkem.matvec", Prefix: "kemmatvec", Var: "asmMatVec",
		Type: "func(acc, a *[256]int16, stride int, c *[512]int16, k int)", LoopLabel: "loop"}
)

// buildKEM builds mlkem.mulcache and mlkem.matvec: per tier, the cache's
// variant and the row product's per unroll.
func buildKEM(b *famgen.Builder) {
	kc := newKEMConsts()
	for _, s := range famgen.ISAs {
		b.Tier(kemMulCache, s)
		buildCache(&gen{b.Gen(s)}, kc)
		for _, u := range []int{1, 2} {
			b.Unrolled(kemMatVec, s, u)
			buildKEMMatVec(&gen{b.Gen(s)}, u, kc)
		}
	}
}

// montMul16 returns x·c·2^−16 mod q, canonical, for 16-bit lanes x and
// constant lanes c (below q) given with cq = c·q⁻¹ mod 2^16: VPMULHW of x
// and c less VPMULHW of q and the quotient VPMULLW(x, cq), then q added to
// the negative lanes.
func (g *gen) montMul16(x reg.VecVirtual, c, cq operand.Mem, qv reg.VecVirtual) reg.VecVirtual {
	t, h := g.ISA.Vec(), g.ISA.Vec()
	VPMULLW(cq, x, t)
	VPMULHW(c, x, h)
	VPMULHW(qv, t, t)
	VPSUBW(t, h, h)
	m := g.ISA.Vec()
	VPSRAW(operand.U8(15), h, m)
	g.ISA.AndD(qv, m, m)
	VPADDW(m, h, h)
	return h
}

// buildCache emits mlkem.mulcache: per vector of coefficients, b·R with
// the odd lanes multiplied by γ too (B1, stored at c[i]) and b·R with
// each pair's words swapped (B2, at c[256+i]).
func buildCache(g *gen, kc kemConsts) {
	cp, bp := GP64(), GP64()
	Load(Param("c"), cp)
	Load(Param("b"), bp)
	qv := g.ISA.Load(g.Lanes16(kq))
	per := g.ISA.Lanes(16)
	var swap []byte
	for i := 0; i < 64; i += 4 {
		swap = append(swap, byte(i+2), byte(i+3), byte(i), byte(i+1))
	}
	sw := g.ISA.Load(g.Consts.Bytes(swap[:g.ISA.Bytes]))
	for i := 0; i < 256; i += per {
		// the constants of this vector's pairs: R² in the even lanes,
		// γ·R² in the odd ones (as Montgomery factors, ·q⁻¹ too)
		var cs, cqs []uint16
		for j := i; j < i+per; j += 2 {
			g2 := uint16(kc.gammas[j/2] * int64(kc.r2) % kq)
			cs = append(cs, kc.r2, g2)
			cqs = append(cqs, kc.r2*kc.qinv, g2*kc.qinv)
		}
		x := g.ISA.Load(operand.Mem{Base: bp, Disp: 2 * i})
		b1 := g.montMul16(x, g.Lanes16(cs...), g.Lanes16(cqs...), qv)
		g.ISA.Store(b1, operand.Mem{Base: cp, Disp: 2 * i})
		b := g.montMul16(x, g.Lanes16(kc.r2), g.Lanes16(kc.r2*kc.qinv), qv)
		VPSHUFB(sw, b, b)
		g.ISA.Store(b, operand.Mem{Base: cp, Disp: 512 + 2*i})
	}
	vecgen.End()
}

// buildKEMMatVec emits mlkem.matvec: acc = Σ_{j<k} a[j·stride] ∘ b_j for
// the caches c of b_0..b_{k−1} (consecutive), per vector of coefficients
// the even (a0·b0 + a1·b1·γ) and odd (a0·b1 + a1·b0) dword sums of k
// VPMADDWD pairs, a Montgomery reduction of each and the pair packed back
// into words.
func buildKEMMatVec(g *gen, unroll int, kc kemConsts) {
	p := vecgen.Ptrs("acc", "a", "stride", "c", "k")
	acc, a, stride, cp, k := p[0], p[1], p[2], p[3], p[4]
	SHLQ(operand.U8(9), stride) // bytes between the row's polynomials
	qv, qi := g.ISA.Load(g.Splat(kq)), g.ISA.Load(g.Splat(uint32(kc.qinv)))
	step := g.ISA.Bytes * unroll
	vecgen.Loop("loop", 512/step, unroll, func(u int) {
		off := u * g.ISA.Bytes
		even, odd := g.ISA.Vec(), g.ISA.Vec()
		x := g.ISA.Load(operand.Mem{Base: a, Disp: off})
		VPMADDWD(operand.Mem{Base: cp, Disp: off}, x, even)
		VPMADDWD(operand.Mem{Base: cp, Disp: 512 + off}, x, odd)
		pa, pc := GP64(), GP64()
		LEAQ(operand.Mem{Base: a, Index: stride, Scale: 1, Disp: off}, pa)
		LEAQ(operand.Mem{Base: cp, Disp: off + 1024}, pc)
		terms(u, k, func() {
			x = g.ISA.Load(operand.Mem{Base: pa})
			p := g.ISA.Vec()
			VPMADDWD(operand.Mem{Base: pc}, x, p)
			VPADDD(p, even, even)
			VPMADDWD(operand.Mem{Base: pc, Disp: 512}, x, p)
			VPADDD(p, odd, odd)
			ADDQ(stride, pa)
			ADDQ(operand.U32(1024), pc)
		})
		for _, s := range []reg.VecVirtual{even, odd} {
			g.reduce16(s, qv, qi)
		}
		VPSLLD(operand.U8(16), odd, odd)
		g.ISA.OrD(odd, even, even)
		g.ISA.Store(even, operand.Mem{Base: acc, Disp: off})
	}, vecgen.Stride(acc, step), vecgen.Stride(a, step), vecgen.Stride(cp, step))
	vecgen.End()
}

// reduce16 reduces the dword sums s in place to (−q, q) and then to
// [0, q): Montgomery with R = 2^16, the quotient the signed low 16 bits
// of s·q⁻¹.
func (g *gen) reduce16(s, qv, qi reg.VecVirtual) {
	t := g.ISA.Vec()
	VPMULLD(qi, s, t)
	VPSLLD(operand.U8(16), t, t)
	VPSRAD(operand.U8(16), t, t) // the quotient, signed 16 bits
	VPMULLD(qv, t, t)
	VPSUBD(t, s, s)
	VPSRAD(operand.U8(16), s, s) // in (−q, q)
	m := g.ISA.Vec()
	VPSRAD(operand.U8(31), s, m)
	g.ISA.AndD(qv, m, m)
	VPADDD(m, s, s)
}
