package contract

import (
	"fmt"
	"strings"
)

// A Link is one step of an operation's chain: the output From.FromArg
// is the input To.ToArg of the next step. Glue names a step of Go code
// between two kernels (an addition with its reduction, an encoding),
// whose contract Glues declares.
type Link struct {
	From, FromArg string
	To, ToArg     string
}

// A Chain is the sequence of kernel steps one whole operation runs.
type Chain struct {
	Op    string // e.g. "ML-KEM-768 encaps"
	Links []Link
}

// Glue steps: Go code between kernels (kernels/mlkem pke.go,
// kernels/mldsa), with the contracts it keeps (each reduces its result
// to canonical coefficients).
var glues = []Kernel{
	{Name: "mlkem.add", Q: QKEM, Args: []Arg{poly16("f", kemCanon, kemCanon), poly16("g", kemCanon, nil)},
		Doc: "polyAdd and polySub reduce to canonical coefficients"},
	{Name: "mlkem.sample", Q: QKEM, Args: []Arg{poly16("f", nil, kemCanon)},
		Doc: "SampleNTT (rejection below q) and CBD output canonical coefficients"},
	{Name: "mlkem.decode12", Q: QKEM, Args: []Arg{poly16("f", nil, kemCanon)},
		Doc: "ByteDecode_12 of ŝ (checked below q) outputs canonical coefficients"},
	{Name: "mldsa.sample", Q: QDSA, Args: []Arg{poly32("f", nil, dsaCanon)},
		Doc: "RejNTTPoly, RejBoundedPoly and ExpandMask (mod q) output canonical coefficients"},
	{Name: "mldsa.add", Q: QDSA, Args: []Arg{poly32("f", dsaCanon, dsaCanon), poly32("g", dsaCanon, nil)},
		Doc: "additions and subtractions reduce to canonical coefficients"},
	{Name: "mldsa.round", Q: QDSA, Args: []Arg{poly32("f", dsaCanon, nil)},
		Doc: "Power2Round, Decompose, MakeHint, UseHint and the norm checks read canonical coefficients"},
}

// Glue returns the contract of glue step name.
func Glue(name string) (Kernel, bool) {
	for _, k := range glues {
		if k.Name == name {
			return k, true
		}
	}
	return Kernel{}, false
}

func step(name string) (Kernel, bool) {
	if k, ok := Of(name); ok {
		return k, true
	}
	return Glue(name)
}

func l(from, fa, to, ta string) Link { return Link{from, fa, to, ta} }

// kemChain is the order of ML-KEM's steps; each parameter set runs the
// same chain, ML-KEM-512 (η1 = 3) sampling s, e and y by CBD3 (the
// others, and every e1, e2, by CBD2). K-PKE's products run through the
// multiplication cache of the vector (mlkem.mulcache) and the row
// products against it (mlkem.matvec), not mlkem.mulntt.
func kemChains(set string) []Chain {
	front := []Link{
		l("mlkem.sample", "f", "mlkem.ntt", "f"),      // s, e, y: CBD → NTT
		l("mlkem.cbd2", "f", "mlkem.ntt", "f"),        // η = 2
		l("mlkem.ntt", "f", "mlkem.mulcache", "b"),    // ŝ, ŷ cached for the products
		l("mlkem.mulcache", "c", "mlkem.matvec", "c"), // their caches
		l("mlkem.sample", "f", "mlkem.matvec", "a"),   // Â's rows
		l("mlkem.matvec", "acc", "mlkem.add", "f"),    // Â∘ŝ + ê
		l("mlkem.ntt", "f", "mlkem.add", "g"),         // ê
	}
	if set == "512" { // η1 = 3: s, e and y sampled by CBD3
		front = append(front, l("mlkem.cbd3", "f", "mlkem.ntt", "f"))
	}
	encaps := append(append([]Link(nil), front...),
		l("mlkem.add", "f", "mlkem.invntt", "f"),      // the sum of products
		l("mlkem.matvec", "acc", "mlkem.invntt", "f"), // NTT⁻¹(Âᵀ∘ŷ)
		l("mlkem.invntt", "f", "mlkem.add", "f"),      // + e1, e2, μ
		l("mlkem.decompress", "f", "mlkem.add", "g"),
		l("mlkem.add", "f", "mlkem.compress", "f"),
	)
	decaps := []Link{
		l("mlkem.decompress", "f", "mlkem.ntt", "f"), // u
		l("mlkem.ntt", "f", "mlkem.mulcache", "b"),
		l("mlkem.mulcache", "c", "mlkem.matvec", "c"),
		l("mlkem.decode12", "f", "mlkem.matvec", "a"), // ŝ decoded, checked below q
		l("mlkem.matvec", "acc", "mlkem.add", "f"),
		l("mlkem.add", "f", "mlkem.invntt", "f"),
		l("mlkem.invntt", "f", "mlkem.add", "f"), // v − NTT⁻¹(ŝᵀ∘û)
		l("mlkem.decompress", "f", "mlkem.add", "g"),
		l("mlkem.add", "f", "mlkem.compress", "f"),
	}
	decaps = append(decaps, encaps...) // the re-encryption
	return []Chain{
		{Op: "ML-KEM-" + set + " keygen", Links: front},
		{Op: "ML-KEM-" + set + " encaps", Links: encaps},
		{Op: "ML-KEM-" + set + " decaps", Links: decaps},
	}
}

func dsaChains(set string) []Chain {
	keygen := []Link{
		l("mldsa.sample", "f", "mldsa.ntt", "f"), // s1
		l("mldsa.ntt", "f", "mldsa.matvec", "v"),
		l("mldsa.sample", "f", "mldsa.matvec", "a"), // Â's row
		l("mldsa.matvec", "acc", "mldsa.invntt", "f"),
		l("mldsa.invntt", "f", "mldsa.power2round", "t0"), // Power2Round(t + s2)
		l("mldsa.sample", "f", "mldsa.power2round", "s2"),
	}
	sign := append(append([]Link(nil), keygen...),
		l("mldsa.sample", "f", "mldsa.ntt", "f"),          // c
		l("mldsa.expandmask", "yHat", "mldsa.ntt", "f"),   // ŷ = NTT(y)
		l("mldsa.expandmask", "y", "mldsa.response", "z"), // z = y + cs1
		l("mldsa.ntt", "f", "mldsa.mulntt", "a"),          // ĉ
		l("mldsa.mulntt", "h", "mldsa.invntt", "f"),
		l("mldsa.invntt", "f", "mldsa.response", "cs1"), // z = y + cs1
		l("mldsa.invntt", "f", "mldsa.round", "f"),      // w1Encode(HighBits(w))
		l("mldsa.invntt", "f", "mldsa.lowbits", "w"),    // w = NTT⁻¹(Â∘ŷ)
		l("mldsa.invntt", "f", "mldsa.lowbits", "cs2"),  // r = w − cs2, r1 = HighBits(r)
		l("mldsa.lowbits", "w", "mldsa.makehint", "r"),
		l("mldsa.invntt", "f", "mldsa.makehint", "ct0"),
		l("mldsa.lowbits", "r1", "mldsa.makehint", "r1"), // MakeHint(−ct0, r + ct0)
	)
	verify := []Link{
		l("mldsa.sample", "f", "mldsa.ntt", "f"), // z, c, t1·2^d
		l("mldsa.ntt", "f", "mldsa.mulntt", "a"),
		l("mldsa.ntt", "f", "mldsa.mulntt", "b"),
		l("mldsa.mulntt", "h", "mldsa.add", "f"),
		l("mldsa.add", "f", "mldsa.invntt", "f"),
		l("mldsa.invntt", "f", "mldsa.round", "f"), // UseHint
	}
	return []Chain{
		{Op: "ML-DSA-" + set + " keygen", Links: keygen},
		{Op: "ML-DSA-" + set + " sign", Links: sign},
		{Op: "ML-DSA-" + set + " verify", Links: verify},
	}
}

// Chains returns the chains of ML-KEM-512/768/1024 keygen, encaps and
// decaps and ML-DSA-44/65/87 keygen, sign and verify.
func Chains() []Chain {
	var cs []Chain
	for _, s := range []string{"512", "768", "1024"} {
		cs = append(cs, kemChains(s)...)
	}
	for _, s := range []string{"44", "65", "87"} {
		cs = append(cs, dsaChains(s)...)
	}
	return cs
}

// Check returns an error naming the first link whose output bound is
// not within the next step's input bound.
func (c Chain) Check() error {
	for _, k := range c.Links {
		if err := k.Check(); err != nil {
			return fmt.Errorf("%s: %w", c.Op, err)
		}
	}
	return nil
}

// Check reports whether the link's output bound implies its input bound.
func (k Link) Check() error {
	from, ok := step(k.From)
	if !ok {
		return fmt.Errorf("no contract for %s", k.From)
	}
	to, ok := step(k.To)
	if !ok {
		return fmt.Errorf("no contract for %s", k.To)
	}
	fa, ok1 := from.Arg(k.FromArg)
	ta, ok2 := to.Arg(k.ToArg)
	switch {
	case !ok1 || fa.Out == nil:
		return fmt.Errorf("%s has no output %s", k.From, k.FromArg)
	case !ok2 || ta.In == nil:
		return fmt.Errorf("%s has no input %s", k.To, k.ToArg)
	case fa.Elem != ta.Elem || from.Q != to.Q:
		return fmt.Errorf("%s.%s and %s.%s differ in lane width or modulus", k.From, k.FromArg, k.To, k.ToArg)
	case !fa.Out.Within(*ta.In):
		return fmt.Errorf("%s.%s out %s is not within %s.%s in %s", k.From, k.FromArg, fa.Out.Format(from.Q), k.To, k.ToArg, ta.In.Format(to.Q))
	}
	return nil
}

// String is the chain as "a → b → ...".
func (c Chain) String() string {
	var b strings.Builder
	for i, k := range c.Links {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s.%s→%s.%s", k.From, k.FromArg, k.To, k.ToArg)
	}
	return b.String()
}
