package mlkem

// SharedKeySize is the size of a shared key in bytes.
const SharedKeySize = 32

// SeedSize is the size of a decapsulation key seed d || z in bytes.
const SeedSize = 64

// Sizes of encapsulation keys (384·k + 32 bytes) and ciphertexts
// (32·(du·k + dv) bytes) per parameter set (FIPS 203, Table 3).
const (
	EncapsulationKeySize512  = 800
	EncapsulationKeySize768  = 1184
	EncapsulationKeySize1024 = 1568

	CiphertextSize512  = 768
	CiphertextSize768  = 1088
	CiphertextSize1024 = 1568
)

// n is the number of coefficients of a polynomial.
const n = 256

// maxK is the largest module rank, that of ML-KEM-1024.
const maxK = 4

// msgSize is the size of a K-PKE message m, of the randomness r and of
// the seeds ρ, σ, d and z.
const msgSize = 32

// A params is one ML-KEM parameter set (FIPS 203, Table 2).
type params struct {
	name   string
	k      int  // module rank
	eta1   int  // CBD parameter of s, e and y
	du, dv uint // compression of u and v
}

// Parameter sets; eta2 is 2 for all of them.
var (
	params512  = params{name: "ML-KEM-512", k: 2, eta1: 3, du: 10, dv: 4}
	params768  = params{name: "ML-KEM-768", k: 3, eta1: 2, du: 10, dv: 4}
	params1024 = params{name: "ML-KEM-1024", k: 4, eta1: 2, du: 11, dv: 5}
)

// eta2 is the CBD parameter of e1 and e2.
const eta2 = 2

// ekSize returns the size of an encapsulation key: ByteEncode12 of t̂ || ρ.
func (p *params) ekSize() int { return 384*p.k + 32 }

// ctSize returns the size of a ciphertext: c1 || c2.
func (p *params) ctSize() int { return p.c1Size() + 32*int(p.dv) }

// c1Size returns the size of the ByteEncode_du of u.
func (p *params) c1Size() int { return 32 * int(p.du) * p.k }
