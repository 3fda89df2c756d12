package sha3

import (
	"encoding/binary"
	"unsafe"
)

// Rates in bytes, 200 minus the capacity (twice the digest size for SHA-3,
// twice the security strength for SHAKE; FIPS 202 section 6), and the
// domain-separation bytes: the suffix bits with the first bit of pad10*1
// (0x06 after "01" for SHA-3, 0x1f after "1111" for SHAKE, 0x04 after "00"
// for cSHAKE, SP 800-185 section 3.3).
const (
	rate224  = 144
	rate256  = 136
	rate384  = 104
	rate512  = 72
	rate128X = 168 // SHAKE128, cSHAKE128
	rate256X = 136 // SHAKE256, cSHAKE256
	maxRate  = rate128X

	dsSHA3   = 0x06
	dsSHAKE  = 0x1f
	dsCSHAKE = 0x04
)

// A sponge is the Keccak sponge (FIPS 202 Algorithm 8) in its absorbing or
// squeezing phase. Absorbing, buf[:n] holds the partial block not absorbed
// yet; squeezing, the current output block is the first rate bytes of a
// (lanes little-endian) and n of them have been read.
type sponge struct {
	a         [25]uint64
	buf       [maxRate]byte
	n         int
	rate      int
	dsbyte    byte
	squeezing bool
}

// write absorbs p: whole blocks straight from p through keccak's
// AbsorbBlocks when nothing is buffered, the rest into buf. It panics
// once the sponge squeezes, as crypto/sha3 does.
func (s *sponge) write(p []byte) {
	if s.squeezing {
		panic("sha3: Write after Read")
	}
	if s.n > 0 {
		k := copy(s.buf[s.n:s.rate], p)
		s.n += k
		p = p[k:]
		if s.n < s.rate {
			return
		}
		absorbBlocks(&s.a, s.buf[:s.rate], s.rate)
		s.n = 0
	}
	if len(p) >= s.rate {
		p = p[absorbBlocks(&s.a, p, s.rate):]
	}
	s.n = copy(s.buf[:s.rate], p)
}

// pad absorbs the buffered bytes with the domain separator and the pad10*1
// padding, permutes and starts squeezing.
func (s *sponge) pad() {
	clear(s.buf[s.n:s.rate])
	s.buf[s.n] = s.dsbyte
	s.buf[s.rate-1] ^= 0x80
	xorBlock(&s.a, s.buf[:s.rate])
	permute(&s.a)
	s.squeezing, s.n = true, 0
}

// read squeezes len(p) bytes into p, padding first if still absorbing.
func (s *sponge) read(p []byte) {
	if !s.squeezing {
		s.pad()
	}
	for len(p) > 0 {
		if s.n == s.rate {
			permute(&s.a)
			s.n = 0
		}
		k := min(len(p), s.rate-s.n)
		extract(p[:k], &s.a, s.n)
		s.n += k
		p = p[k:]
	}
}

// reset empties the sponge, keeping its function: the state becomes init
// (zero, or cSHAKE's state after its customization prefix).
func (s *sponge) reset(init *[25]uint64) {
	s.a, s.n, s.squeezing = *init, 0, false
	clear(s.buf[:])
}

// sumOneShot writes to out the output of the sponge of rate bytes and
// domain separator ds over data, absorbing data's whole blocks in place
// and padding the rest on the stack.
func sumOneShot(out, data []byte, rate int, ds byte) {
	var a [25]uint64
	if len(data) >= rate {
		data = data[absorbBlocks(&a, data, rate):]
	}
	xorPadded(&a, data, rate, ds)
	permute(&a)
	squeeze(out, &a, rate)
}

// squeeze writes len(out) bytes of output from a state that has absorbed
// its padded message and been permuted, permuting between blocks.
func squeeze(out []byte, a *[25]uint64, rate int) {
	for {
		k := min(len(out), rate)
		extract(out[:k], a, 0)
		out = out[k:]
		if len(out) == 0 {
			return
		}
		permute(a)
	}
}

// xorBlock XORs block (a multiple of 8 bytes) into the first lanes of a.
func xorBlock(a *[25]uint64, block []byte) {
	for i := 0; i < len(block)/8; i++ {
		a[i] ^= binary.LittleEndian.Uint64(block[8*i:])
	}
}

// xorPadded XORs the last, partial block tail (len(tail) < rate) into a,
// with the domain separator ds and the final bit of pad10*1.
func xorPadded(a *[25]uint64, tail []byte, rate int, ds byte) {
	words := len(tail) / 8
	xorBlock(a, tail[:8*words])
	var last [8]byte
	copy(last[:], tail[8*words:])
	last[len(tail)%8] = ds
	a[words] ^= binary.LittleEndian.Uint64(last[:])
	a[rate/8-1] ^= 0x80 << 56
}

// extract writes bytes off .. off+len(dst) of the state's little-endian
// encoding to dst: on a little-endian machine, where that encoding is the
// state's memory, one copy.
func extract(dst []byte, a *[25]uint64, off int) {
	if littleEndian {
		copy(dst, unsafe.Slice((*byte)(unsafe.Pointer(a)), 8*len(a))[off:])
		return
	}
	for len(dst) > 0 && off%8 != 0 {
		dst[0] = byte(a[off/8] >> (8 * (off % 8)))
		dst, off = dst[1:], off+1
	}
	lanes := a[off/8:]
	for len(dst) >= 8 {
		binary.LittleEndian.PutUint64(dst, lanes[0])
		dst, lanes = dst[8:], lanes[1:]
	}
	for i := range dst {
		dst[i] = byte(lanes[0] >> (8 * i))
	}
}

// littleEndian reports whether this machine stores a uint64's low byte
// first.
var littleEndian = binary.NativeEndian.Uint16([]byte{1, 0}) == 1
