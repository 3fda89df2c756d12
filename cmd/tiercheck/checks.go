package main

import (
	"bytes"
	"encoding/binary"
	"unsafe"

	"github.com/tunelab/tunelab/kernels/aesecb"
	"github.com/tunelab/tunelab/kernels/keccak"
	"github.com/tunelab/tunelab/kernels/mldsa"
	"github.com/tunelab/tunelab/kernels/mlkem"
	"github.com/tunelab/tunelab/kernels/poly1305"
	"github.com/tunelab/tunelab/kernels/sha3"
)

// A check exercises one exported function at one size, feeding what it
// computes to ctx.out.
type check struct {
	name string
	run  func(x *ctx, n int)
}

// checks lists every exported kernel function and whole operation
// (ops.go), in output order.
var checks = []check{
	{"keccak.Permute", permuteCheck(1, func(s [][25]uint64) { keccak.Permute(&s[0]) })},
	{"keccak.PermuteX2", permuteCheck(2, func(s [][25]uint64) { keccak.PermuteX2((*[2][25]uint64)(s)) })},
	{"keccak.PermuteX4", permuteCheck(4, func(s [][25]uint64) { keccak.PermuteX4((*[4][25]uint64)(s)) })},
	{"keccak.PermuteX8", permuteCheck(8, func(s [][25]uint64) { keccak.PermuteX8((*[8][25]uint64)(s)) })},
	{"poly1305.Sum", polySum},
	{"poly1305.Verify", polyVerify},
	{"poly1305.MAC", polyMAC},
	{"aesecb.Encrypter/128", encrypterCheck(16)},
	{"aesecb.Encrypter/192", encrypterCheck(24)},
	{"aesecb.Encrypter/256", encrypterCheck(32)},
	{"aesecb.Decrypter/128", decrypterCheck(16)},
	{"aesecb.Decrypter/192", decrypterCheck(24)},
	{"aesecb.Decrypter/256", decrypterCheck(32)},
	{"aesecb.Pad+Unpad", padCheck},
	{"mlkem.NTT", unaryCheck(mlkem.Q, mlkem.NTT)},
	{"mlkem.InvNTT", unaryCheck(mlkem.Q, mlkem.InvNTT)},
	{"mlkem.MulNTT", binaryCheck(mlkem.Q, mlkem.MulNTT)},
	{"mldsa.NTT", unaryCheck(mldsa.Q, mldsa.NTT)},
	{"mldsa.InvNTT", unaryCheck(mldsa.Q, mldsa.InvNTT)},
	{"mldsa.MulNTT", binaryCheck(mldsa.Q, mldsa.MulNTT)},
	{"sha3.Sum256", sha3Sum256},
	{"sha3.SHAKE128", shake128Stream},
	{"sha3.SHAKE128Many", shakeManyCheck(sha3.SHAKE128Many)},
	{"sha3.SHAKE256Many", shakeManyCheck(sha3.SHAKE256Many)},
	{"sha3.Sum224+384+512", sha3Sums},
	{"sha3.SumSHAKE256", shake256Sum},
	{"mlkem512.keygen", kemKeygen(kem512)},
	{"mlkem512.encaps", kemEncaps(kem512)},
	{"mlkem512.decaps", kemDecaps(kem512)},
	{"mlkem768.keygen", kemKeygen(kem768)},
	{"mlkem768.encaps", kemEncaps(kem768)},
	{"mlkem768.decaps", kemDecaps(kem768)},
	{"mlkem1024.keygen", kemKeygen(kem1024)},
	{"mlkem1024.encaps", kemEncaps(kem1024)},
	{"mlkem1024.decaps", kemDecaps(kem1024)},
	{"mldsa44.keygen", dsaKeygen(dsa44)},
	{"mldsa44.sign", dsaSign(dsa44)},
	{"mldsa44.verify", dsaVerify(dsa44)},
	{"mldsa65.keygen", dsaKeygen(dsa65)},
	{"mldsa65.sign", dsaSign(dsa65)},
	{"mldsa65.verify", dsaVerify(dsa65)},
	{"mldsa87.keygen", dsaKeygen(dsa87)},
	{"mldsa87.sign", dsaSign(dsa87)},
	{"mldsa87.verify", dsaVerify(dsa87)},
}

// permuteCheck runs a k-state Keccak-f[1600] function over n bytes' worth
// of 200-byte states.
func permuteCheck(k int, f func([][25]uint64)) func(*ctx, int) {
	return func(x *ctx, n int) {
		states := make([][25]uint64, k)
		buf := make([]byte, 0, 200*k)
		for range units(n, 200*k) {
			for i := range states {
				for j := range states[i] {
					states[i][j] = laneInput(x, n)
				}
			}
			f(states)
			x.calls++
			buf = buf[:0]
			for i := range states {
				for _, v := range states[i] {
					buf = binary.LittleEndian.AppendUint64(buf, v)
				}
			}
			x.out(buf)
		}
	}
}

// laneInput is one input lane: zero at size 0, all ones at size 1, else
// from the stream.
func laneInput(x *ctx, n int) uint64 {
	switch n {
	case 0:
		return 0
	case 1:
		return ^uint64(0)
	}
	return x.rng.next()
}

// message returns n stream bytes placed n%13 bytes into a fresh buffer, so
// that kernels see unaligned as well as aligned inputs.
func message(x *ctx, n int) []byte {
	off := n % 13
	m := make([]byte, off+n)[off:]
	x.rng.fill(m)
	return m
}

func polyKey(x *ctx) *[32]byte {
	var k [32]byte
	x.rng.fill(k[:])
	return &k
}

func polySum(x *ctx, n int) {
	key, m := polyKey(x), message(x, n)
	var tag [poly1305.TagSize]byte
	poly1305.Sum(&tag, m, key)
	x.calls++
	x.out(tag[:])
}

// polyVerify checks that Verify accepts the right tag and rejects one with
// a flipped bit; the two answers are its output.
func polyVerify(x *ctx, n int) {
	key, m := polyKey(x), message(x, n)
	var tag [poly1305.TagSize]byte
	poly1305.Sum(&tag, m, key)
	good := poly1305.Verify(&tag, m, key)
	tag[n%poly1305.TagSize] ^= 1 << (n % 8)
	bad := poly1305.Verify(&tag, m, key)
	x.calls += 2
	if !good || bad {
		x.failf("Verify(right tag) = %v, Verify(flipped tag) = %v", good, bad)
	}
	x.out([]byte{b2u(good), b2u(bad)})
}

// chunks are the write lengths a streaming MAC cycles through.
var chunks = []int{1, 15, 16, 17, 63, 64, 65, 200, 255, 256, 1000, 4096}

// polyMAC writes the message to a MAC in chunks of varying length; the tag
// must equal Sum's, and a second MAC fed in one write must verify it.
func polyMAC(x *ctx, n int) {
	key, m := polyKey(x), message(x, n)
	mac := poly1305.New(key)
	for i, rest := n%len(chunks), m; len(rest) > 0; i++ {
		c := min(chunks[i%len(chunks)], len(rest))
		mac.Write(rest[:c])
		rest = rest[c:]
		x.calls++
	}
	tag := mac.Sum(nil)
	var want [poly1305.TagSize]byte
	poly1305.Sum(&want, m, key)
	if !bytes.Equal(tag, want[:]) {
		x.failf("MAC in chunks gives %x, Sum gives %x", tag, want)
	}
	one := poly1305.New(key)
	one.Write(m)
	ok := one.Verify(tag)
	x.calls += 2
	if !ok {
		x.failf("MAC.Verify rejects the tag of its own message")
	}
	x.out(append(tag, b2u(ok)))
}

// encrypterCheck encrypts the PKCS#7-padded message (out of place); the
// ciphertext is the output. Up to roundTripMax bytes, decrypting it in
// place and unpadding must give the message back (the digests compare
// decryption at every size; the round trip only makes a standalone run
// self-checking, and at 1 MiB it would double the generic code's time
// under emulation).
func encrypterCheck(keyLen int) func(*ctx, int) {
	return func(x *ctx, n int) {
		key := make([]byte, keyLen)
		x.rng.fill(key)
		m := message(x, n)
		enc, err1 := aesecb.NewEncrypter(key)
		dec, err2 := aesecb.NewDecrypter(key)
		if err1 != nil || err2 != nil {
			x.failf("new modes: %v, %v", err1, err2)
			return
		}
		p := aesecb.Pad(m)
		ct := make([]byte, len(p)+n%7)[n%7:]
		enc.CryptBlocks(ct, p)
		x.out(ct)
		x.calls++
		if n > roundTripMax {
			return
		}
		pt := bytes.Clone(ct)
		dec.CryptBlocks(pt, pt)
		x.calls++
		if got, err := aesecb.Unpad(pt); err != nil || !bytes.Equal(got, m) {
			x.failf("decrypting the ciphertext does not give the message back (unpad: %v)", err)
		}
	}
}

// roundTripMax is the largest message encrypterCheck decrypts again.
const roundTripMax = 1 << 17

// decrypterCheck decrypts ceil(n/16) stream blocks in place.
func decrypterCheck(keyLen int) func(*ctx, int) {
	return func(x *ctx, n int) {
		key := make([]byte, keyLen)
		x.rng.fill(key)
		buf := message(x, (n+15)&^15)
		dec, err := aesecb.NewDecrypter(key)
		if err != nil {
			x.failf("NewDecrypter: %v", err)
			return
		}
		dec.CryptBlocks(buf, buf)
		x.calls++
		x.out(buf)
	}
}

// padCheck outputs Pad(m), checks that Unpad inverts it and rejects a
// corrupted padding byte, and outputs what Unpad makes of the raw message.
func padCheck(x *ctx, n int) {
	m := message(x, n)
	p := aesecb.Pad(m)
	x.out(p)
	if got, err := aesecb.Unpad(p); err != nil || !bytes.Equal(got, m) {
		x.failf("Unpad(Pad(m)) != m (%v)", err)
	}
	p[len(p)-1-n%int(p[len(p)-1])] ^= 0x80
	_, errBad := aesecb.Unpad(p)
	if errBad == nil {
		x.failf("Unpad accepts a corrupted padding byte")
	}
	raw, errRaw := aesecb.Unpad(m)
	x.calls += 4
	x.out([]byte{b2u(errBad != nil), b2u(errRaw != nil)})
	x.out(binary.LittleEndian.AppendUint32(nil, uint32(len(raw))))
}

// A coeff is a polynomial coefficient type: int16 for ML-KEM, int32 for
// ML-DSA.
type coeff interface{ ~int16 | ~int32 }

// polyInput fills p: zero at size 0, q-1 at size 1, else uniform in [0, q).
func polyInput[E coeff](x *ctx, p *[256]E, q, n int) {
	for i := range p {
		switch n {
		case 0:
			p[i] = 0
		case 1:
			p[i] = E(q - 1)
		default:
			p[i] = E(x.rng.below(uint32(q)))
		}
	}
}

// outPoly outputs p's coefficients as 32-bit little-endian words.
func outPoly[E coeff](x *ctx, p *[256]E) {
	b := make([]byte, 0, 4*len(p))
	for _, v := range p {
		b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
	}
	x.out(b)
}

// unaryCheck runs an in-place transform over n bytes' worth of
// polynomials (2 or 4 bytes per coefficient).
func unaryCheck[E coeff](q int, f func(*[256]E)) func(*ctx, int) {
	return func(x *ctx, n int) {
		var p [256]E
		for range units(n, 256*sizeOf[E]()) {
			polyInput(x, &p, q, n)
			f(&p)
			x.calls++
			outPoly(x, &p)
		}
	}
}

// binaryCheck runs a product h = f·g over n bytes' worth of input pairs;
// every other call writes the product over f (h aliases f).
func binaryCheck[E coeff](q int, mul func(h, f, g *[256]E)) func(*ctx, int) {
	return func(x *ctx, n int) {
		var h, f, g [256]E
		for i := range units(n, 2*256*sizeOf[E]()) {
			polyInput(x, &f, q, n)
			polyInput(x, &g, q, n)
			dst := &h
			if i%2 == 1 {
				dst = &f
			}
			mul(dst, &f, &g)
			x.calls++
			outPoly(x, dst)
		}
	}
}

func sizeOf[E coeff]() int {
	var z E
	return int(unsafe.Sizeof(z))
}

func b2u(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// sha3Sum256 digests an n-byte message.
func sha3Sum256(x *ctx, n int) {
	d := sha3.Sum256(message(x, n))
	x.calls++
	x.out(d[:])
}

// shake128Stream absorbs an n-byte message in chunks and squeezes
// n%1000+1 bytes in chunks, through the streaming API.
func shake128Stream(x *ctx, n int) {
	m := message(x, n)
	h := sha3.NewSHAKE128()
	for i := 0; len(m) > 0; i++ {
		c := min(chunks[i%len(chunks)], len(m))
		h.Write(m[:c])
		m = m[c:]
	}
	out := make([]byte, n%1000+1)
	for o, i := out, 0; len(o) > 0; i++ {
		c := min(chunks[i%len(chunks)], len(o))
		h.Read(o[:c])
		o = o[c:]
	}
	x.calls++
	x.out(out)
}

// shakeManyCheck hashes 9 streams (an ML-KEM-768 matrix) of lengths
// around n/9 and output lengths around 504 with a many-stream function.
func shakeManyCheck(many func(outs, ins [][]byte)) func(*ctx, int) {
	return func(x *ctx, n int) {
		m := message(x, n)
		ins, outs := make([][]byte, 9), make([][]byte, 9)
		for i := range ins {
			lo, hi := i*len(m)/9, (i+1)*len(m)/9
			ins[i], outs[i] = m[lo:hi], make([]byte, 504+i*37)
		}
		many(outs, ins)
		x.calls++
		for _, o := range outs {
			x.out(o)
		}
	}
}
