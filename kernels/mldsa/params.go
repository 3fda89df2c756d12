package mldsa

// Sizes in bytes of ML-DSA seeds, keys and signatures (FIPS 204, Table 2).
const (
	// SeedSize is the size of the key generation seed ξ.
	SeedSize = 32

	// PublicKeySize44 is the size of an ML-DSA-44 public key (pkEncode).
	PublicKeySize44 = 1312
	// PrivateKeySize44 is the size of an ML-DSA-44 private key (skEncode).
	PrivateKeySize44 = 2560
	// SignatureSize44 is the size of an ML-DSA-44 signature (sigEncode).
	SignatureSize44 = 2420

	// PublicKeySize65 is the size of an ML-DSA-65 public key (pkEncode).
	PublicKeySize65 = 1952
	// PrivateKeySize65 is the size of an ML-DSA-65 private key (skEncode).
	PrivateKeySize65 = 4032
	// SignatureSize65 is the size of an ML-DSA-65 signature (sigEncode).
	SignatureSize65 = 3309

	// PublicKeySize87 is the size of an ML-DSA-87 public key (pkEncode).
	PublicKeySize87 = 2592
	// PrivateKeySize87 is the size of an ML-DSA-87 private key (skEncode).
	PrivateKeySize87 = 4896
	// SignatureSize87 is the size of an ML-DSA-87 signature (sigEncode).
	SignatureSize87 = 4627
)

// Constants shared by every parameter set (FIPS 204, Section 4).
const (
	n         = 256 // coefficients per polynomial
	d         = 13  // dropped bits of t
	maxK      = 8   // largest k
	maxL      = 7   // largest l
	rhoSize   = 32  // ρ, the public seed of Â
	keySize   = 32  // K, the private seed of the mask
	trSize    = 64  // tr = H(pk, 64)
	muSize    = 64  // μ = H(tr || M', 64)
	rndSize   = 32  // rnd, the signing randomness
	rhoPrime  = 64  // ρ', the seed of s1 and s2
	maxCTilde = 64  // largest c̃ (λ/4 bytes)
	t1Bits    = 10  // bitlen(q-1) - d
	t0Bits    = d   // bits of each packed t0 coefficient
	t1Bytes   = n * t1Bits / 8
	t0Bytes   = n * t0Bits / 8
	maxCtx    = 255 // longest context string
)

// params is one ML-DSA parameter set (FIPS 204, Table 1) together with the
// sizes derived from it. The fields are fixed at compile time; the one
// implementation of KeyGen, Sign and Verify takes a *params.
type params struct {
	name       string
	k, l       int   // Â is k×l
	eta        int32 // η, the bound of s1 and s2
	tau        int   // τ, the number of ±1 in c
	cTilde     int   // λ/4, the size of c̃
	gamma1Bits uint  // γ1 = 2^gamma1Bits
	gamma2     int32 // γ2, (q-1)/88 or (q-1)/32
	rounding   rounding
	omega      int  // ω, the most hints
	etaBits    uint // bitlen(2η)
	w1Bits     uint // bitlen((q-1)/(2γ2) - 1)
	pkSize     int
	skSize     int
	sigSize    int
}

var (
	params44 = params{
		name: "ML-DSA-44", k: 4, l: 4, eta: 2, tau: 39, cTilde: 32,
		gamma1Bits: 17, gamma2: (Q - 1) / 88, rounding: rounding88, omega: 80, etaBits: 3, w1Bits: 6,
		pkSize: PublicKeySize44, skSize: PrivateKeySize44, sigSize: SignatureSize44,
	}
	params65 = params{
		name: "ML-DSA-65", k: 6, l: 5, eta: 4, tau: 49, cTilde: 48,
		gamma1Bits: 19, gamma2: (Q - 1) / 32, rounding: rounding32, omega: 55, etaBits: 4, w1Bits: 4,
		pkSize: PublicKeySize65, skSize: PrivateKeySize65, sigSize: SignatureSize65,
	}
	params87 = params{
		name: "ML-DSA-87", k: 8, l: 7, eta: 2, tau: 60, cTilde: 64,
		gamma1Bits: 19, gamma2: (Q - 1) / 32, rounding: rounding32, omega: 75, etaBits: 3, w1Bits: 4,
		pkSize: PublicKeySize87, skSize: PrivateKeySize87, sigSize: SignatureSize87,
	}
)

// gamma1 returns γ1.
func (p *params) gamma1() int32 { return 1 << p.gamma1Bits }

// beta returns β = τ·η.
func (p *params) beta() int32 { return int32(p.tau) * p.eta }

// zBits returns the bits of each packed z coefficient, bitlen(2γ1 - 1).
func (p *params) zBits() uint { return p.gamma1Bits + 1 }

// etaBytes returns the size of one packed s1 or s2 polynomial.
func (p *params) etaBytes() int { return n * int(p.etaBits) / 8 }

// zBytes returns the size of one packed z polynomial.
func (p *params) zBytes() int { return n * int(p.zBits()) / 8 }

// w1Bytes returns the size of one packed w1 polynomial.
func (p *params) w1Bytes() int { return n * int(p.w1Bits) / 8 }

// Offsets of the parts of an encoded private key: ρ || K || tr || s1 || s2 || t0.
func (p *params) skS1() int { return rhoSize + keySize + trSize }
func (p *params) skS2() int { return p.skS1() + p.l*p.etaBytes() }
func (p *params) skT0() int { return p.skS2() + p.k*p.etaBytes() }

// sigHints returns the offset of the hints in an encoded signature:
// c̃ || z || h.
func (p *params) sigHints() int { return p.cTilde + p.l*p.zBytes() }
