package mlkem

import (
	"bytes"
	"crypto/sha3"
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/tunelab/tunelab/kernels/cpu"
	ksha3 "github.com/tunelab/tunelab/kernels/sha3"
)

// Tests of the parts of the whole operations against direct, bit-level
// transcriptions of FIPS 203's algorithms, exhaustive where the domain is
// small.

// compressWidths are the d of Compress_d that ML-KEM uses.
var compressWidths = []uint{1, 4, 5, 10, 11}

// refCompress is ⌈(2^d/q)·x⌋ mod 2^d with ⌈y⌋ = ⌊y + 1/2⌋, in exact
// integer arithmetic.
func refCompress(x, d uint64) uint64 { return (x<<(d+1) + Q) / (2 * Q) % (1 << d) }

// refDecompress is ⌈(q/2^d)·y⌋.
func refDecompress(y, d uint64) uint64 { return (y*Q*2 + 1<<d) >> (d + 1) }

// TestSubGE checks subGE for every lane value below 2^15 in every lane,
// the other lanes random, for the constants q and 2q used here, and that
// dot's lazy sum of maxK products stays below 2^15.
func TestSubGE(t *testing.T) {
	if maxK*(Q-1) >= 1<<15 {
		t.Fatalf("a sum of %d products can reach %d, beyond 2^15", maxK, maxK*(Q-1))
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for _, c := range []uint64{Q, 2 * Q} {
		for x := range uint64(1 << 15) {
			var w [4]uint64
			for l := range w {
				w[l] = rng.Uint64N(1 << 15)
			}
			w[x%4] = x
			in := w[0] | w[1]<<16 | w[2]<<32 | w[3]<<48
			got := subGE(in, c)
			for l, v := range w {
				if v >= c {
					v -= c
				}
				if g := got >> (16 * l) & 0xffff; g != v {
					t.Fatalf("subGE(%#x, %d): lane %d = %d, want %d", in, c, l, g, v)
				}
			}
		}
	}
}

// TestPolyArithmetic checks addMod, subFrom and dot (for every k and both
// strides) against coefficient-wise arithmetic mod q and the generic
// MulNTT, on random polynomials and on all-(q−1) ones.
func TestPolyArithmetic(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	m := make([]poly, maxK*maxK+2*maxK+2)
	for i := range 20 {
		for j := range m {
			m[j] = *randPoly(rng)
			if i == 0 {
				m[j] = [n]int16{}
				for c := range m[j] {
					m[j][c] = Q - 1
				}
			}
		}
		mat, v, f, g := m[:maxK*maxK], m[maxK*maxK:maxK*maxK+maxK], &m[len(m)-2], &m[len(m)-1]
		if err := checkAddSub(f, g); err != nil {
			t.Fatalf("#%d: %v", i, err)
		}
		for k := 1; k <= maxK; k++ {
			for _, stride := range []int{1, k} {
				if err := checkDot(mat, v[:k], k, stride); err != nil {
					t.Fatalf("#%d: k = %d, stride %d: %v", i, k, stride, err)
				}
			}
		}
	}
}

func checkAddSub(f, g *poly) error {
	sum, dif := *f, *f
	addMod(&sum, g)
	subFrom(&dif, g)
	for i := range f {
		if want := (f[i] + g[i]) % Q; sum[i] != want {
			return fmt.Errorf("addMod: coefficient %d = %d, want %d", i, sum[i], want)
		}
		if want := (g[i] - f[i] + Q) % Q; dif[i] != want {
			return fmt.Errorf("subFrom: coefficient %d = %d, want %d", i, dif[i], want)
		}
	}
	return nil
}

func checkDot(mat, v []poly, k, stride int) error {
	scr := make([]poly, 3)
	for off := range k {
		if stride == 1 {
			off *= k
		}
		cs := make([]mulCache, len(v))
		cacheVector(cs, v)
		rowProduct(&scr[0], mat, off, stride, cs)
		var want [n]int32
		for j := range v {
			mulNTTGeneric(&scr[2], &mat[off+j*stride], &v[j])
			for i, c := range scr[2] {
				want[i] = (want[i] + int32(c)) % Q
			}
		}
		for i, c := range scr[0] {
			if int32(c) != want[i] {
				return fmt.Errorf("offset %d: coefficient %d = %d, want %d", off, i, c, want[i])
			}
		}
	}
	return nil
}

// refEncode is ByteEncode_d (Algorithm 5) bit by bit, with BitsToBytes.
func refEncode(f []uint16, d uint) []byte {
	b := make([]byte, len(f)*int(d)/8)
	for i, c := range f {
		for j := range d {
			k := i*int(d) + int(j)
			b[k/8] |= byte(c>>j&1) << (k % 8)
		}
	}
	return b
}

// refDecode is ByteDecode_d (Algorithm 6) without the final reduction,
// bit by bit.
func refDecode(b []byte, d uint) []uint16 {
	f := make([]uint16, len(b)*8/int(d))
	for i := range f {
		for j := range d {
			k := i*int(d) + int(j)
			f[i] |= uint16(b[k/8]>>(k%8)&1) << j
		}
	}
	return f
}

// randPoly returns a polynomial with coefficients uniform in [0, q).
func randPoly(rng *rand.Rand) *poly {
	var f poly
	for i := range f {
		f[i] = int16(rng.IntN(Q))
	}
	return &f
}

// randBytes returns n random bytes.
func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// TestEncodings checks compressEncode, decodeDecompress, encode12,
// decode12, encodeMessage and decodeMessage against the bit-level
// encodings on random inputs.
func TestEncodings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 50 {
		f := randPoly(rng)
		for _, d := range append(compressWidths, 12) {
			if err := checkEncodings(f, randBytes(rng, 32*int(d)), d); err != nil {
				t.Fatalf("#%d: %v", i, err)
			}
		}
	}
}

// checkEncodings checks the encodings of width d on f and src.
func checkEncodings(f *poly, src []byte, d uint) error {
	comp := make([]uint16, n)
	for i, c := range f {
		comp[i] = uint16(refCompress(uint64(c), uint64(d)))
		if d == 12 {
			comp[i] = uint16(c)
		}
	}
	got := make([]byte, 32*d)
	var back poly
	switch d {
	case 12:
		encode12(got, f)
		if !decode12(&back, got) || back != *f {
			return fmt.Errorf("decode12(encode12(f)) is not f")
		}
	case 1:
		encodeMessage((*[msgSize]byte)(got), f)
	default:
		compressEncode(got, f, d)
	}
	if want := refEncode(comp, d); !bytes.Equal(got, want) {
		return fmt.Errorf("encoding width %d: %x, want %x", d, got, want)
	}
	if d == 12 {
		return nil
	}
	if d == 1 {
		decodeMessage(&back, (*[msgSize]byte)(src))
	} else {
		decodeDecompress(&back, src, d)
	}
	for i, y := range refDecode(src, d) {
		if want := refDecompress(uint64(y), uint64(d)); uint64(back[i]) != want {
			return fmt.Errorf("decoding width %d of %x: coefficient %d = %d, want %d", d, src, i, back[i], want)
		}
	}
	return nil
}

// TestDecode12Check puts every 12-bit value at even and odd positions
// and checks that decode12 refuses exactly those ≥ q.
func TestDecode12Check(t *testing.T) {
	var f, g poly
	b := make([]byte, 384)
	for _, pos := range []int{0, 1, 200, 255} {
		for v := range int16(1 << 12) {
			f[pos] = v
			encode12(b, &f) // checked against refEncode in TestEncodings
			if ok := decode12(&g, b); ok != (v < Q) || g != f {
				t.Fatalf("decode12 with coefficient %d = %d: ok %v, decoded %d", pos, v, ok, g[pos])
			}
		}
		f[pos] = 0
	}
}

// refCBD is SamplePolyCBD_η (Algorithm 8) bit by bit.
func refCBD(b []byte, eta int) *poly {
	bit := func(k int) int { return int(b[k/8] >> (k % 8) & 1) }
	var f poly
	for i := range f {
		x, y := 0, 0
		for j := range eta {
			x += bit(2*i*eta + j)
			y += bit(2*i*eta + eta + j)
		}
		f[i] = int16((x - y + Q) % Q)
	}
	return &f
}

// TestCBD checks cbd2 and cbd3 against Algorithm 8 on random and extreme
// bytes.
func TestCBD(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 100 {
		for _, eta := range []int{2, 3} {
			b := randBytes(rng, 64*eta)
			switch i {
			case 0:
				clear(b)
			case 1:
				copy(b, bytes.Repeat([]byte{0xff}, len(b)))
			case 2:
				copy(b, bytes.Repeat([]byte{0x0f, 0xf0, 0x3c, 0xc3}, len(b)))
			}
			var got poly
			if eta == 2 {
				cbd2(&got, b)
			} else {
				cbd3(&got, b)
			}
			if want := refCBD(b, eta); got != *want {
				t.Fatalf("#%d: SamplePolyCBD_%d(%x) = %v, want %v", i, eta, b, got, *want)
			}
		}
	}
}

// refSampleNTT is SampleNTT (Algorithm 7), reading the XOF three bytes at
// a time; it also returns how many bytes it read.
func refSampleNTT(in []byte) (*poly, int) {
	x := sha3.NewSHAKE128()
	x.Write(in)
	var f poly
	read := 0
	for j := 0; j < n; {
		var c [3]byte
		x.Read(c[:])
		read += 3
		d1 := uint16(c[0]) + 256*uint16(c[1]%16)
		d2 := uint16(c[1]/16) + 16*uint16(c[2])
		if d1 < Q {
			f[j] = int16(d1)
			j++
		}
		if d2 < Q && j < n {
			f[j] = int16(d2)
			j++
		}
	}
	return &f, read
}

// TestSampleNTT checks the matrix expansion (the streams of a batch
// sampled block by block) against Algorithm 7 on random ρ for every rank,
// beside other sponges in the batch, and on a ρ whose matrix has a stream
// that needs more than xofBlocks blocks; rejectSample is checked given
// stream prefixes of several lengths.
func TestSampleNTT(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	check := func(rho [32]byte, k int, what string) (long bool) {
		t.Helper()
		var b ksha3.Batch
		var ms matrixScratch
		var h [32]byte
		b.SHA3_256(&h, rho[:]) // another sponge in the batch
		addMatrix(&b, &ms, &rho, k)
		a := make([]poly, k*k)
		runMatrix(&b, a, &ms)
		for i := range k {
			for j := range k {
				want, read := refSampleNTT(append(rho[:], byte(j), byte(i)))
				if a[i*k+j] != *want {
					t.Fatalf("%s: Â[%d, %d] of ρ = %x differs from SampleNTT", what, i, j, rho)
				}
				long = long || read > 168*xofBlocks
			}
		}
		if h != sha3.Sum256(rho[:]) {
			t.Fatalf("%s: the hash beside the matrix differs", what)
		}
		return long
	}
	for i := range 30 {
		for k := 2; k <= maxK; k++ {
			check([32]byte(randBytes(rng, 32)), k, fmt.Sprintf("#%d, k = %d", i, k))
		}
	}
	for i := 0; ; i++ {
		if i == 2000 {
			t.Fatal("no matrix among 2000 has a stream that needs more than xofBlocks blocks")
		}
		if check([32]byte(randBytes(rng, 32)), 3, "long stream") {
			break
		}
	}
	for i := range 50 {
		in := randBytes(rng, 34)
		want, _ := refSampleNTT(in)
		buf := sha3.SumSHAKE128(in, 6*168)
		for _, l := range []int{0, 3, 168, 333, 504} {
			var got poly
			j := rejectSample(&got, 0, buf[:l])
			if j = rejectSample(&got, j, buf[l:]); j != n || got != *want {
				t.Fatalf("#%d: rejectSample in two parts split at %d differs from SampleNTT", i, l)
			}
		}
	}
}

// TestHashes checks every function of hash.go and the batched matrix and
// noise streams against crypto/sha3 used directly.
func TestHashes(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, l := range []int{0, 1, 33, 64, 135, 136, 137, 168, 1184, 1600} {
		b := randBytes(rng, l)
		if got, want := hashH(b), sha3.Sum256(b); got != want {
			t.Errorf("H of %d bytes: %x, want %x", l, got, want)
		}
		for _, cut := range []int{0, l / 2, l} {
			var h ksha3.SHA3
			var bt ksha3.Batch
			var got [32]byte
			n := addH(&bt, &h, b[:cut])
			bt.Run()
			if finishH(&got, &h, b[n:]); got != sha3.Sum256(b) {
				t.Errorf("H of %d bytes, %d of them batched (addH): %x, want %x", l, n, got, sha3.Sum256(b))
			}
		}
		if got, want := hashG(b), sha3.Sum512(b); got != want {
			t.Errorf("G of %d bytes: %x, want %x", l, got, want)
		}
		var got [32]byte
		var bt ksha3.Batch
		addJ(&bt, &got, b[:l/3], b[l/3:])
		bt.Run()
		if want := sha3.SumSHAKE256(b, 32); !bytes.Equal(got[:], want) {
			t.Errorf("J of %d bytes: %x, want %x", l, got, want)
		}
	}
	for _, p := range []*params{&params512, &params768, &params1024} {
		var bt ksha3.Batch
		var ms matrixScratch
		var sc noiseScratch
		rho, sigma := [32]byte(randBytes(rng, 32)), [32]byte(randBytes(rng, 32))
		addMatrix(&bt, &ms, &rho, p.k)
		addNoise(&bt, &sc, &sigma, 2*p.k+1, p.k, p.eta1)
		a := make([]poly, p.k*p.k)
		runMatrix(&bt, a, &ms)
		for i := range p.k {
			for j := range p.k {
				if want, _ := refSampleNTT(append(rho[:], byte(j), byte(i))); a[i*p.k+j] != *want {
					t.Errorf("%s: Â[%d, %d] differs from SampleNTT", p.name, i, j)
				}
			}
		}
		for i := range 2*p.k + 1 {
			eta := map[bool]int{true: p.eta1, false: eta2}[i < p.k]
			if want := sha3.SumSHAKE256(append(sigma[:], byte(i)), 64*eta); !bytes.Equal(sc.prf[i][:64*eta], want) {
				t.Errorf("%s: PRF stream %d differs from SHAKE256", p.name, i)
			}
		}
	}
}

// TestAlignment checks that the polynomials lanes reads word by word are
// 8-byte aligned: those of the scratch and of keys.
func TestAlignment(t *testing.T) {
	sc := new(noiseScratch)
	dk, err := newDecapsulationKey(&params768, make([]byte, SeedSize))
	if err != nil {
		t.Fatal(err)
	}
	key, err := NewDecapsulationKey768(make([]byte, SeedSize))
	if err != nil {
		t.Fatal(err)
	}
	pooled := matrixPool.Get().(*[maxK * maxK]poly)
	defer matrixPool.Put(pooled)
	polys := map[string]*poly{"noise": &sc.noise[0], "acc": &sc.acc, "tmp": &sc.tmp, "pooled Â": &pooled[0],
		"Â": &dk.ek.matrix()[0], "t̂": &dk.ek.t[0], "ŝ": &dk.s[0], "768 key's Â": &key.dk.ek.matrix()[0]}
	for name, p := range polys {
		if a := uintptr(unsafe.Pointer(p)) % 8; a != 0 {
			t.Errorf("%s is at an address ≡ %d mod 8", name, a)
		}
	}
}

// TestMatVec checks every runnable mulcache and matvec variant against the
// generic code (boundary and 2000 random inputs), and the generic row
// product against sums of the generic MulNTT.
func TestMatVec(t *testing.T) {
	for i, im := range mulCacheSlot.Known() {
		if cpu.Has(im.Features...) {
			if err := mulCacheSlot.Verify(im.Name, im.Fn, uint64(i)+1, 2000); err != nil {
				t.Error(err)
			}
		}
	}
	for i, im := range matVecSlot.Known() {
		if cpu.Has(im.Features...) {
			if err := matVecSlot.Verify(im.Name, im.Fn, uint64(i)+1, 2000); err != nil {
				t.Error(err)
			}
		}
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := range 50 {
		k := 1 + trial%maxK
		m, v := make([]poly, k*k), make([]poly, k)
		for j := range m {
			for c := range m[j] {
				m[j][c] = int16(rng.IntN(Q))
			}
		}
		for j := range v {
			for c := range v[j] {
				v[j][c] = int16(rng.IntN(Q))
			}
		}
		cs := make([]mulCache, k)
		for j := range v {
			mulCacheGeneric(&cs[j], &v[j])
		}
		for _, col := range []bool{false, true} {
			off, stride := 0, 1
			if col {
				off, stride = k-1, k
			}
			var got, want, prod poly
			matVecGeneric(&got, &m[off], stride, &cs[0], k)
			for j := range k {
				mulNTTGeneric(&prod, &m[off+j*stride], &v[j])
				for c := range want {
					want[c] = int16((int32(want[c]) + int32(prod[c])) % Q)
				}
			}
			if got != want {
				t.Fatalf("trial %d (k = %d, column %v): the row product differs from the sum of MulNTT", trial, k, col)
			}
		}
	}
}

// TestEqualWords checks decapsulation's constant-time compare against
// bytes.Equal: equal inputs of every length up to a ciphertext's, and
// each with one bit flipped at every position.
func TestEqualWords(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{0, 1, 7, 8, 9, 15, 16, 17, 768, 1088, CiphertextSize1024} {
		a := make([]byte, n)
		for i := range a {
			a[i] = byte(r.Uint32())
		}
		b := bytes.Clone(a)
		if got := equalWords(a, b); got != 1 {
			t.Errorf("n=%d: equal inputs give %d, want 1", n, got)
		}
		for i := range n {
			for bit := range 8 {
				b[i] ^= 1 << bit
				if got := equalWords(a, b); got != 0 {
					t.Fatalf("n=%d: byte %d bit %d flipped gives %d, want 0", n, i, bit, got)
				}
				b[i] ^= 1 << bit
			}
		}
	}
}
