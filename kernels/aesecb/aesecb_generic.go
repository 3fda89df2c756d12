package aesecb

import "encoding/binary"

// The generic AES follows FIPS 197 directly and is constant-time: the
// S-box is computed, not looked up, as the affine map of the GF(2^8)
// inverse x^254, eight bytes at a time in a uint64 (SWAR), with no
// secret-dependent branches or memory indices. It is the specification the
// assembly variants are compared against; speed is irrelevant.

const (
	lsb = 0x0101010101010101 // lowest bit of every byte
	low = 0x7f7f7f7f7f7f7f7f // all but the highest bit of every byte
)

// xtime multiplies each byte of x by the polynomial x in GF(2^8) modulo
// m(x) = x^8 + x^4 + x^3 + x + 1 (FIPS 197 §4.2.1).
func xtime(x uint64) uint64 {
	return (x&low)<<1 ^ (x>>7&lsb)*0x1b
}

// gmul multiplies bytewise in GF(2^8): bit i of each byte of b selects
// a·x^i.
func gmul(a, b uint64) uint64 {
	var p uint64
	for i := 0; i < 8; i++ {
		p ^= a & ((b >> i & lsb) * 0xff)
		a = xtime(a)
	}
	return p
}

// ginv returns each byte's multiplicative inverse x^254 (0 maps to 0), by
// the addition chain 2, 3, 6, 12, 15, 30, 60, 120, 126, 127, 254.
func ginv(x uint64) uint64 {
	x2 := gmul(x, x)
	x3 := gmul(x2, x)
	x6 := gmul(x3, x3)
	x12 := gmul(x6, x6)
	x15 := gmul(x12, x3)
	x30 := gmul(x15, x15)
	x60 := gmul(x30, x30)
	x120 := gmul(x60, x60)
	x126 := gmul(x120, x6)
	x127 := gmul(x126, x)
	return gmul(x127, x127)
}

// rotb rotates every byte of x left by k bits (0 < k < 8).
func rotb(x uint64, k uint) uint64 {
	hi := uint64(0xff<<k&0xff) * lsb
	lo := uint64(0xff>>(8-k)) * lsb
	return x<<k&hi | x>>(8-k)&lo
}

// subBytes applies the S-box to 8 bytes: b ^ rot1 ^ rot2 ^ rot3 ^ rot4 ^
// 0x63 of the inverse (FIPS 197 §5.1.1).
func subBytes(x uint64) uint64 {
	b := ginv(x)
	return b ^ rotb(b, 1) ^ rotb(b, 2) ^ rotb(b, 3) ^ rotb(b, 4) ^ 0x63*lsb
}

// invSubBytes applies the inverse S-box: the inverse of the inverse affine
// map rot1 ^ rot3 ^ rot6 ^ 0x05 (FIPS 197 §5.3.2).
func invSubBytes(x uint64) uint64 {
	return ginv(rotb(x, 1) ^ rotb(x, 3) ^ rotb(x, 6) ^ 0x05*lsb)
}

// A state is the 4x4 byte state in FIPS 197 order: s[r+4c] is row r,
// column c, which is the order of the bytes in memory.
type state [16]byte

func (s *state) apply(f func(uint64) uint64) {
	binary.LittleEndian.PutUint64(s[:8], f(binary.LittleEndian.Uint64(s[:8])))
	binary.LittleEndian.PutUint64(s[8:], f(binary.LittleEndian.Uint64(s[8:])))
}

func (s *state) addRoundKey(k []byte) {
	for i := range s {
		s[i] ^= k[i]
	}
}

// shiftRows rotates row r left by r columns; invShiftRows right.
func (s *state) shiftRows() {
	t := *s
	for r := 1; r < 4; r++ {
		for c := 0; c < 4; c++ {
			s[r+4*c] = t[r+4*((c+r)%4)]
		}
	}
}

func (s *state) invShiftRows() {
	t := *s
	for r := 1; r < 4; r++ {
		for c := 0; c < 4; c++ {
			s[r+4*((c+r)%4)] = t[r+4*c]
		}
	}
}

// mixColumns multiplies every column by {03}x^3 + {01}x^2 + {01}x + {02}
// (FIPS 197 §5.1.3); invMixColumns by {0b}x^3 + {0d}x^2 + {09}x + {0e}.
func (s *state) mixColumns() { s.apply(func(x uint64) uint64 { return mix(x, 2, 3, 1, 1) }) }

func (s *state) invMixColumns() {
	s.apply(func(x uint64) uint64 { return mix(x, 0x0e, 0x0b, 0x0d, 0x09) })
}

// mix computes, for the two columns in x (one per 32-bit half),
// s'[r] = c0·s[r] ^ c1·s[r+1] ^ c2·s[r+2] ^ c3·s[r+3], rows mod 4.
func mix(x uint64, c0, c1, c2, c3 uint64) uint64 {
	return gmul(x, c0*lsb) ^ gmul(rotRows(x, 1), c1*lsb) ^ gmul(rotRows(x, 2), c2*lsb) ^ gmul(rotRows(x, 3), c3*lsb)
}

// rotRows moves byte r+i of each 32-bit column to byte r (rows mod 4).
func rotRows(x uint64, i uint) uint64 {
	lo := uint64(0xffffffff>>(8*i)) * 0x100000001
	hi := uint64(0xffffffff<<(32-8*i)&0xffffffff) * 0x100000001
	return x>>(8*i)&lo | x<<(32-8*i)&hi
}

// encryptBlock is the cipher of FIPS 197 §5.1 with schedule rk.
func encryptBlock(rk []byte, nr int, dst, src []byte) {
	var s state
	copy(s[:], src[:16])
	s.addRoundKey(rk[:16])
	for r := 1; r <= nr; r++ {
		s.apply(subBytes)
		s.shiftRows()
		if r < nr {
			s.mixColumns()
		}
		s.addRoundKey(rk[16*r:])
	}
	copy(dst, s[:])
}

// decryptBlock is the equivalent inverse cipher of FIPS 197 §5.3.5 with the
// decryption schedule dk (see invertSchedule), as AESDEC computes it.
func decryptBlock(dk []byte, nr int, dst, src []byte) {
	var s state
	copy(s[:], src[:16])
	s.addRoundKey(dk[:16])
	for r := 1; r <= nr; r++ {
		s.invShiftRows()
		s.apply(invSubBytes)
		if r < nr {
			s.invMixColumns()
		}
		s.addRoundKey(dk[16*r:])
	}
	copy(dst, s[:])
}

// encryptBlocksGeneric and decryptBlocksGeneric crypt len(src)/16 blocks.
func encryptBlocksGeneric(rk *[240]byte, nr int, dst, src []byte) {
	for i := 0; i+16 <= len(src); i += 16 {
		encryptBlock(rk[:], nr, dst[i:], src[i:])
	}
}

func decryptBlocksGeneric(dk *[240]byte, nr int, dst, src []byte) {
	for i := 0; i+16 <= len(src); i += 16 {
		decryptBlock(dk[:], nr, dst[i:], src[i:])
	}
}

// rcon[i] is x^i in GF(2^8), the first byte of Rcon[i+1] (FIPS 197 §5.2).
func rcon(i int) byte {
	x := uint64(1)
	for ; i > 0; i-- {
		x = xtime(x)
	}
	return byte(x)
}

// expandKeyGeneric is the key expansion of FIPS 197 §5.2 followed by
// invertSchedule; key has 16, 24 or 32 bytes.
func expandKeyGeneric(key []byte, enc, dec *[240]byte) {
	nk := len(key) / 4
	nr := nk + 6
	copy(enc[:], key)
	for i := nk; i < 4*(nr+1); i++ {
		t := binary.LittleEndian.Uint32(enc[4*(i-1):])
		switch {
		case i%nk == 0:
			t = uint32(subBytes(uint64(t>>8|t<<24))) ^ uint32(rcon(i/nk-1))
		case nk > 6 && i%nk == 4:
			t = uint32(subBytes(uint64(t)))
		}
		binary.LittleEndian.PutUint32(enc[4*i:], t^binary.LittleEndian.Uint32(enc[4*(i-nk):]))
	}
	invertSchedule(enc, dec, nr)
}

// invertSchedule derives the equivalent inverse cipher's schedule:
// dk[0] = ek[nr], dk[r] = InvMixColumns(ek[nr-r]), dk[nr] = ek[0].
func invertSchedule(enc, dec *[240]byte, nr int) {
	for r := 0; r <= nr; r++ {
		var s state
		copy(s[:], enc[16*(nr-r):])
		if r > 0 && r < nr {
			s.invMixColumns()
		}
		copy(dec[16*r:], s[:])
	}
}
