package poly1305

import "math/big"

// sumBig is an independent reference for the generic code: Poly1305
// straight from RFC 8439 section 2.5.1 with math/big.
func sumBig(out *[16]byte, m []byte, key *[32]byte) {
	p := new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5))
	clamped := *key
	for _, i := range []int{3, 7, 11, 15} {
		clamped[i] &= 15
	}
	for _, i := range []int{4, 8, 12} {
		clamped[i] &= 252
	}
	r := leInt(clamped[:16])
	s := leInt(key[16:])
	acc := new(big.Int)
	for len(m) > 0 {
		k := min(len(m), 16)
		block := append(append([]byte(nil), m[:k]...), 1)
		acc.Add(acc, leInt(block))
		acc.Mul(acc, r)
		acc.Mod(acc, p)
		m = m[k:]
	}
	acc.Add(acc, s)
	b := acc.Bytes() // big-endian
	var le [16]byte
	for i := 0; i < 16 && i < len(b); i++ {
		le[i] = b[len(b)-1-i]
	}
	*out = le
}

// leInt reads b as a little-endian unsigned integer.
func leInt(b []byte) *big.Int {
	be := make([]byte, len(b))
	for i := range b {
		be[len(b)-1-i] = b[i]
	}
	return new(big.Int).SetBytes(be)
}
