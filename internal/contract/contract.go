// Package contract declares, once per arithmetic kernel, the value
// bounds its inputs must satisfy and its outputs satisfy: the input
// bound the generic Go code requires and the output bound it delivers, per
// array parameter, in units of the modulus where there is one. The
// kernels' tests check that the generic code satisfies them
// (kernels/mlkem, kernels/mldsa: contract_test.go), the range analysis
// (variants/internal/bounds, run by every generator) proves every
// generated variant's outputs within the output bound for every input
// within the input bound, and Chains lists, for each whole operation, the
// steps whose output must satisfy the next step's input contract
// (checked by this package's tests and `tunelab bounds`).
package contract

import (
	"fmt"
	"sort"
)

// Moduli of the fields.
const (
	QKEM = 3329    // ML-KEM
	QDSA = 8380417 // ML-DSA
)

// A Bound is the closed interval [Lo, Hi] of a lane's value.
type Bound struct{ Lo, Hi int64 }

// Within reports whether b lies within c.
func (b Bound) Within(c Bound) bool { return c.Lo <= b.Lo && b.Hi <= c.Hi }

// Canonical is [0, q-1].
func Canonical(q int64) Bound { return Bound{0, q - 1} }

// Format writes b in units of q ("[0, q-1]", "[-8q, 8q]") where it is a
// whole multiple of q or q-1, else as integers.
func (b Bound) Format(q int64) string {
	if q == 0 {
		return fmt.Sprintf("[%d, %d]", b.Lo, b.Hi)
	}
	unit := func(x int64) string {
		switch {
		case x == 0:
			return "0"
		case x == q-1:
			return "q-1"
		case x == -(q - 1):
			return "-(q-1)"
		case x%q == 0:
			return fmt.Sprintf("%dq", x/q)
		}
		return fmt.Sprintf("%d", x)
	}
	return fmt.Sprintf("[%s, %s]", unit(b.Lo), unit(b.Hi))
}

// An Arg is one array parameter of a kernel: Lanes signed integers of
// Elem bytes.
type Arg struct {
	Name  string
	Elem  int
	Lanes int
	In    *Bound // the bound every input lane must satisfy; nil: not an input
	Out   *Bound // the bound every output lane satisfies; nil: not an output
	// Values, if set, make the parameter an integer (not an array): the
	// values the callers pass, each of which the analysis runs.
	Values []int64
	// Encoding, if set, makes the output an encoding: Out (every
	// pattern) bounds the lanes the kernel writes, 32·d bytes into an
	// array of the widest d's, each any bit pattern (parts of packed
	// wider lanes included).
	Encoding bool
	// Sets, if set, are the alternatives for a small array of constants
	// (Decompose's constants of one γ2 and a limit): each set gives every
	// lane's bound (a constant where Lo = Hi), and the analysis runs once
	// per set, as it does per value of an integer parameter. In is their
	// union.
	Sets [][]Bound
}

// A Kernel is the contract of one kernel.
type Kernel struct {
	Name string
	Q    int64 // the modulus, the unit of the bounds; 0: none
	Args []Arg
	Doc  string // where the bound comes from
}

func ptr(b Bound) *Bound { return &b }

// maxK is ML-KEM's largest vector length (ML-KEM-1024): mlkem.matvec
// takes k ≤ maxK caches and a row stride ≤ maxK (1, or k for Âᵀ).
const maxK = 4

// maxL is ML-DSA's largest vector length l (ML-DSA-87): mldsa.matvec
// takes l ≤ maxL polynomials of a row and of the vector.
const maxL = 7

// upTo returns 1..n.
func upTo(n int64) []int64 {
	var vs []int64
	for i := int64(1); i <= n; i++ {
		vs = append(vs, i)
	}
	return vs
}

var (
	kemCanon = ptr(Canonical(QKEM))
	dsaCanon = ptr(Canonical(QDSA))
)

// Decompose's constants (kernels/mldsa arith.go: mult ≈ 2^24/(2γ2/128),
// m = (q−1)/(2γ2), 2γ2) for γ2 = (q−1)/32 (ML-DSA-65, -87) and
// γ2 = (q−1)/88 (ML-DSA-44).
const (
	mult32, m32, twoG2_32 = 4100, 16, 2 * ((QDSA - 1) / 32)
	mult88, m88, twoG2_88 = 11275, 44, 2 * ((QDSA - 1) / 88)
)

// roundConsts is the c *[4]int32 of mldsa.lowbits and mldsa.makehint:
// {mult, m, 2γ2, limit} for each γ2, the limit (γ2 − β − 1 or γ2 − 1,
// read only by the norm check's flag) any value in [0, q].
func roundConsts() Arg {
	c := func(v int64) Bound { return Bound{v, v} }
	sets := [][]Bound{
		{c(mult32), c(m32), c(twoG2_32), {0, QDSA}},
		{c(mult88), c(m88), c(twoG2_88), {0, QDSA}},
	}
	return Arg{Name: "c", Elem: 4, Lanes: 4, In: &Bound{0, QDSA}, Sets: sets}
}

// r1Bound is HighBits' range, [0, m − 1] for the larger m (44, γ2 =
// (q−1)/88).
var r1Bound = &Bound{0, m88 - 1}

func bytes256(name string, in, out *Bound) Arg { return bytesOf(name, 256, in, out) }

func bytesOf(name string, n int, in, out *Bound) Arg {
	return Arg{Name: name, Elem: 1, Lanes: n, In: in, Out: out}
}

// anyByte is every byte, as a bit pattern.
var anyByte = &Bound{-128, 127}

// compressD are the widths of ML-KEM's compression (du = 10, 11; dv = 4,
// 5; 1 for the message), maxPacked the bytes of the widest, 32·11.
var (
	compressD = []int64{1, 4, 5, 10, 11}
	maxPacked = 32 * 11
)

func poly16(name string, in, out *Bound) Arg {
	return Arg{Name: name, Elem: 2, Lanes: 256, In: in, Out: out}
}
func poly32(name string, in, out *Bound) Arg {
	return Arg{Name: name, Elem: 4, Lanes: 256, In: in, Out: out}
}

var kernels = []Kernel{
	{Name: "mlkem.ntt", Q: QKEM, Args: []Arg{poly16("f", kemCanon, kemCanon)},
		Doc: "nttGeneric (FIPS 203 Algorithm 9) takes and returns canonical coefficients"},
	{Name: "mlkem.invntt", Q: QKEM, Args: []Arg{poly16("f", kemCanon, kemCanon)},
		Doc: "invNTTGeneric (FIPS 203 Algorithm 10) takes and returns canonical coefficients"},
	{Name: "mlkem.mulntt", Q: QKEM, Args: []Arg{poly16("h", nil, kemCanon), poly16("a", kemCanon, nil), poly16("b", kemCanon, nil)},
		Doc: "mulNTTGeneric (FIPS 203 Algorithm 11) multiplies canonical operands into canonical h"},
	{Name: "mlkem.mulcache", Q: QKEM, Args: []Arg{{Name: "c", Elem: 2, Lanes: 512, Out: kemCanon}, poly16("b", kemCanon, nil)},
		Doc: "mulCacheGeneric takes canonical b and returns its cache (b0·R, b1·γ·R, b1·R, b0·R mod q), canonical"},
	{Name: "mlkem.matvec", Q: QKEM, Args: []Arg{poly16("acc", nil, kemCanon),
		{Name: "a", Elem: 2, Lanes: 256 * ((maxK-1)*maxK + 1), In: kemCanon}, {Name: "c", Elem: 2, Lanes: 512 * maxK, In: kemCanon},
		{Name: "stride", Values: upTo(maxK)}, {Name: "k", Values: upTo(maxK)}},
		Doc: "matVecGeneric sums k ≤ 4 base-case products of the canonical rows a[j·stride] (stride ≤ 4) and canonical caches c (below k·2·(q−1)² < 2^27) and reduces them to canonical acc"},
	{Name: "mlkem.cbd2", Q: QKEM, Args: []Arg{poly16("f", nil, kemCanon), {Name: "b", Elem: 1, Lanes: 128, In: &Bound{-128, 127}}},
		Doc: "cbd2Generic (SamplePolyCBD_2, FIPS 203 Algorithm 8) reads any 128 bytes and returns canonical coefficients (−2..2 mod q)"},
	{Name: "mlkem.compress", Q: QKEM, Args: []Arg{{Name: "dst", Elem: 1, Lanes: maxPacked, Out: anyByte, Encoding: true}, poly16("f", kemCanon, nil), {Name: "d", Values: compressD}},
		Doc: "compressGeneric writes ByteEncode_d(Compress_d(f)) of canonical f (FIPS 203 4.2.1, Algorithm 5), 32·d bytes, each any value, for d = 1, 4, 5, 10, 11"},
	{Name: "mlkem.decompress", Q: QKEM, Args: []Arg{poly16("f", nil, kemCanon), bytesOf("src", maxPacked, anyByte, nil), {Name: "d", Values: compressD}},
		Doc: "decompressGeneric reads any 32·d bytes and returns Decompress_d(ByteDecode_d(src)) = ⌊(y·q + 2^(d−1))/2^d⌋ < q, canonical, for d = 1, 4, 5, 10, 11"},
	{Name: "mlkem.cbd3", Q: QKEM, Args: []Arg{poly16("f", nil, kemCanon), {Name: "b", Elem: 1, Lanes: 192, In: &Bound{-128, 127}}},
		Doc: "cbd3Generic (SamplePolyCBD_3, FIPS 203 Algorithm 8) reads any 192 bytes and returns canonical coefficients (−3..3 mod q)"},
	{Name: "mldsa.ntt", Q: QDSA, Args: []Arg{poly32("f", dsaCanon, dsaCanon)},
		Doc: "nttGeneric (FIPS 204 Algorithm 41) takes and returns canonical coefficients"},
	{Name: "mldsa.invntt", Q: QDSA, Args: []Arg{poly32("f", dsaCanon, dsaCanon)},
		Doc: "invNTTGeneric (FIPS 204 Algorithm 42) takes and returns canonical coefficients"},
	{Name: "mldsa.power2round", Q: QDSA, Args: []Arg{poly32("t1", nil, &Bound{0, (QDSA - 1 + 1<<12 - 1) >> 13}),
		poly32("t0", dsaCanon, &Bound{-(1<<12 - 1), 1 << 12}), poly32("s2", &Bound{-(QDSA - 1), QDSA - 1}, nil)},
		Doc: "power2RoundGeneric adds s2 in (−q, q) to canonical t0 mod q and splits it by Power2Round (FIPS 204 Algorithm 35): t1 = ⌊(t + 2^12 − 1)/2^13⌋ ≤ 1023, t0 = t − t1·2^13 in [−(2^12−1), 2^12]"},
	{Name: "mldsa.response", Q: QDSA, Args: []Arg{poly32("z", &Bound{-(1<<19 - 1), 1 << 19}, &Bound{-(1<<19 - 1) - (QDSA-1)/2, 1<<19 + (QDSA-1)/2}), poly32("cs1", dsaCanon, nil)},
		Doc: "responseGeneric adds canonical cs1, centered to [−(q−1)/2, (q−1)/2], to z = y from ExpandMask, in [−(γ1−1), γ1] (γ1 ≤ 2^19)"},
	{Name: "mldsa.matvec", Q: QDSA, Args: []Arg{poly32("acc", nil, dsaCanon),
		{Name: "a", Elem: 4, Lanes: 256 * maxL, In: dsaCanon}, {Name: "v", Elem: 4, Lanes: 256 * maxL, In: dsaCanon},
		{Name: "l", Values: upTo(maxL)}},
		Doc: "matVecGeneric sums l ≤ 7 products of canonical a[j] and v[j] in 64 bits and reduces the sum to canonical acc"},
	{Name: "mldsa.lowbits", Q: QDSA, Args: []Arg{poly32("w", dsaCanon, dsaCanon), poly32("cs2", dsaCanon, nil),
		bytes256("r1", nil, r1Bound), roundConsts()},
		Doc: "lowBitsGeneric sets canonical w to r = w − cs2 mod q (canonical) and r1 to HighBits(r) in [0, m−1] (Decompose, FIPS 204 Algorithm 36, m = 16 or 44), with c the constants of γ2 = (q−1)/32 or (q−1)/88"},
	{Name: "mldsa.makehint", Q: QDSA, Args: []Arg{poly32("r", dsaCanon, nil), poly32("ct0", dsaCanon, nil),
		bytes256("r1", r1Bound, nil), bytes256("h", nil, &Bound{0, 1}), roundConsts()},
		Doc: "makeHintGeneric reads canonical r and ct0 and r1 = HighBits(r) in [0, m−1] and writes the hints h in {0, 1} (MakeHint, FIPS 204 Algorithm 39), with c the constants of γ2 = (q−1)/32 or (q−1)/88"},
	{Name: "mldsa.expandmask", Q: QDSA, Args: []Arg{poly32("y", nil, &Bound{-(1<<19 - 1), 1 << 19}), poly32("yHat", nil, dsaCanon),
		{Name: "b", Elem: 1, Lanes: 32 * 20, In: &Bound{-128, 127}}, {Name: "bits", Values: []int64{18, 20}}},
		Doc: "expandMaskGeneric reads any 32·bits bytes (bits = 18 or 20) and returns y = γ1 − field in [−(γ1−1), γ1] (BitUnpack, FIPS 204 Algorithm 19, γ1 = 2^(bits−1) ≤ 2^19) and yHat the same canonical"},
	{Name: "mldsa.mulntt", Q: QDSA, Args: []Arg{poly32("h", nil, dsaCanon), poly32("a", dsaCanon, nil), poly32("b", dsaCanon, nil)},
		Doc: "mulNTTGeneric (FIPS 204 Algorithm 45) multiplies canonical operands into canonical h"},
}

// Of returns the contract of kernel name.
func Of(name string) (Kernel, bool) {
	for _, k := range kernels {
		if k.Name == name {
			return k, true
		}
	}
	return Kernel{}, false
}

// Kernels returns the names of the kernels with a contract, sorted.
func Kernels() []string {
	var ns []string
	for _, k := range kernels {
		ns = append(ns, k.Name)
	}
	sort.Strings(ns)
	return ns
}

// Arg returns k's parameter name.
func (k Kernel) Arg(name string) (Arg, bool) {
	for _, a := range k.Args {
		if a.Name == name {
			return a, true
		}
	}
	return Arg{}, false
}
