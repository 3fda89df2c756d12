package baselines

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/hex"
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/aesecb"
	"github.com/tunelab/tunelab/kernels/variant"
)

// The AES baselines, registered for each of the six aesecb kernels:
// ext=stdblock runs crypto/aes Block.Encrypt (Decrypt) over the message one
// 16-byte block per call; ext=stdctr XORs the message with crypto/cipher
// CTR's keystream of the same length (8 blocks in flight with AES-NI),
// the fastest bulk AES a Go user gets from the standard library.

var aesKernels = []struct {
	name string
	bits int
	dec  bool
}{
	{"aes128.enc", 128, false}, {"aes128.dec", 128, true},
	{"aes192.enc", 192, false}, {"aes192.dec", 192, true},
	{"aes256.enc", 256, false}, {"aes256.dec", 256, true},
}

func init() {
	aesecb.RegisterVariants()
	for _, k := range aesKernels {
		for _, ctr := range []bool{false, true} {
			b := aesBaseline{kernel: k.name, bits: k.bits, dec: k.dec, ctr: ctr}
			variant.Register(variant.Variant{
				Kernel: k.name, Name: b.name(), External: true,
				New:    func(size int, seed uint64) variant.Instance { return b.newInstance(size, seed) },
				Verify: b.verify,
			})
		}
	}
}

// An aesBaseline is one standard-library AES path for one kernel.
type aesBaseline struct {
	kernel string
	bits   int
	dec    bool
	ctr    bool
}

func (b aesBaseline) name() string {
	if b.ctr {
		return "ext=stdctr"
	}
	return "ext=stdblock"
}

// An aesInstance holds a key, message and output buffer; the CTR stream
// continues across runs (the keystream's throughput does not depend on
// the counter value).
type aesInstance struct {
	b        aesBaseline
	rng      *rand.Rand
	key      []byte
	block    cipher.Block
	stream   cipher.Stream
	src, dst []byte
}

func (b aesBaseline) newInstance(size int, seed uint64) *aesInstance {
	in := &aesInstance{b: b, rng: rand.New(rand.NewPCG(seed, 0xae5))}
	in.src = make([]byte, size&^15)
	in.dst = make([]byte, len(in.src))
	in.refill()
	return in
}

// refill draws a fresh key and message and restarts the stream at a zero
// counter block.
func (in *aesInstance) refill() {
	in.key = make([]byte, in.b.bits/8)
	aesFill(in.rng, in.key)
	aesFill(in.rng, in.src)
	blk, err := aes.NewCipher(in.key)
	if err != nil {
		panic(err)
	}
	in.block = blk
	in.stream = cipher.NewCTR(blk, make([]byte, 16))
}

// Run crypts the message n times.
func (in *aesInstance) Run(n int) {
	for i := 0; i < n; i++ {
		switch {
		case in.b.ctr:
			in.stream.XORKeyStream(in.dst, in.src)
		case in.b.dec:
			for j := 0; j+16 <= len(in.src); j += 16 {
				in.block.Decrypt(in.dst[j:], in.src[j:])
			}
		default:
			for j := 0; j+16 <= len(in.src); j += 16 {
				in.block.Encrypt(in.dst[j:], in.src[j:])
			}
		}
	}
}

// Check runs once on a fresh key and message and compares with aesecb
// (which dispatch may run on its slow generic code): every block of
// messages up to 8 KiB, else the first and last 4 KiB.
func (in *aesInstance) Check() error {
	in.refill()
	in.Run(1)
	for _, w := range aesWindows(len(in.src)) {
		want, err := in.b.reference(in.key, in.src[w[0]:w[1]], w[0]/16)
		if err != nil {
			return err
		}
		for i := 0; i < len(want); i += 16 {
			got := in.dst[w[0]+i : w[0]+i+16]
			if string(got) != string(want[i:i+16]) {
				return &variant.Mismatch{Kernel: in.b.kernel, Variant: in.b.name(),
					Input: fmt.Sprintf("random key and %d-byte message", len(in.src)), Index: w[0] + i,
					Got: hex.EncodeToString(got), Want: hex.EncodeToString(want[i : i+16])}
			}
		}
	}
	return nil
}

// aesWindows returns the byte ranges Check compares.
func aesWindows(n int) [][2]int {
	const w = 4096
	if n <= 2*w {
		return [][2]int{{0, n}}
	}
	return [][2]int{{0, w}, {n - w, n}}
}

// reference computes the expected output for src, which starts at block
// first of the message, with aesecb: ECB directly, or for CTR src XOR the
// ECB encryption of the big-endian counter blocks first, first+1, ...
func (b aesBaseline) reference(key, src []byte, first int) ([]byte, error) {
	out := make([]byte, len(src))
	if !b.ctr {
		mode, err := aesecb.NewEncrypter(key)
		if b.dec {
			mode, err = aesecb.NewDecrypter(key)
		}
		if err != nil {
			return nil, err
		}
		mode.CryptBlocks(out, src)
		return out, nil
	}
	mode, err := aesecb.NewEncrypter(key)
	if err != nil {
		return nil, err
	}
	for i := 0; i < len(src)/16; i++ {
		c := first + i
		out[16*i+12], out[16*i+13], out[16*i+14], out[16*i+15] = byte(c>>24), byte(c>>16), byte(c>>8), byte(c)
	}
	mode.CryptBlocks(out, out)
	for i := range out {
		out[i] ^= src[i]
	}
	return out, nil
}

// verify checks the baseline on random inputs of the given size.
func (b aesBaseline) verify(size int, seed uint64) error {
	return b.newInstance(size, seed).Check()
}

func aesFill(rng *rand.Rand, p []byte) {
	for i := range p {
		p[i] = byte(rng.Uint32())
	}
}
