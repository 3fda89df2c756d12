package baselines

import (
	"crypto/sha3"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/cloudflare/circl/simd/keccakf1600"
	"github.com/tunelab/tunelab/kernels/keccak"
	"github.com/tunelab/tunelab/kernels/variant"
)

// The Keccak baselines:
//   - keccak.x1 ext=sha3: crypto/sha3 SHAKE128 squeezing 168 bytes per op,
//     which is exactly one permutation (plus copying 168 bytes out);
//   - keccak.x4 ext=circl: circl's StateX4.Permute on its own
//     lane-interleaved buffer (a[4i+j] = lane i of state j); no
//     transposition is counted, the best case for circl;
//   - keccak.x4 ext=circl-xpose: the same, plus what a caller with
//     state-major [4][25]uint64 states pays: transposing into circl's
//     layout and back around every permutation;
//   - keccak.x8 ext=circl: two StateX4.Permute calls per op;
//   - sha3.256 ext=sha3: crypto/sha3.Sum256 of the n-byte message.
//
// They are verified against keccak.Permute, keccak.PermuteX4 and
// keccak.AbsorbBlocks (whose variants are verified against the generic
// code in kernels/keccak's tests).

func init() {
	keccak.RegisterVariants()
	variant.Register(
		variant.Variant{Kernel: "keccak.x1", Name: "ext=sha3", External: true,
			New:    func(_ int, seed uint64) variant.Instance { return newSHAKEInstance(seed) },
			Verify: func(_ int, seed uint64) error { return newSHAKEInstance(seed).Check() }},
		circlVariant("keccak.x4", "ext=circl", 1, false),
		circlVariant("keccak.x4", "ext=circl-xpose", 1, true),
		circlVariant("keccak.x8", "ext=circl", 2, false),
		variant.Variant{Kernel: "sha3.256", Name: "ext=sha3", External: true,
			New:    func(size int, seed uint64) variant.Instance { return newSum256Instance(size, seed) },
			Verify: verifySum256},
	)
}

// A sum256Instance hashes one message with crypto/sha3.Sum256.
type sum256Instance struct {
	seed uint64
	msg  []byte
	sum  [32]byte
}

func newSum256Instance(size int, seed uint64) *sum256Instance {
	r := rand.New(rand.NewPCG(seed, 0x5a3256))
	in := &sum256Instance{seed: seed, msg: make([]byte, max(size, 0))}
	for i := range in.msg {
		in.msg[i] = byte(r.Uint32())
	}
	return in
}

// Run hashes the message n times.
func (in *sum256Instance) Run(n int) {
	for i := 0; i < n; i++ {
		in.sum = sha3.Sum256(in.msg)
	}
}

// Check compares crypto/sha3's digest of the message with SHA3-256
// computed on keccak.AbsorbBlocks.
func (in *sum256Instance) Check() error {
	got, want := sha3.Sum256(in.msg), absorbSum256(in.msg)
	for i := range got {
		if got[i] != want[i] {
			return &variant.Mismatch{Kernel: "sha3.256", Variant: "ext=sha3",
				Input: fmt.Sprintf("%d-byte message (seed %#x)", len(in.msg), in.seed),
				Index: i, Got: fmt.Sprintf("%x", got), Want: fmt.Sprintf("%x", want)}
		}
	}
	return nil
}

// verifySum256 checks crypto/sha3.Sum256 on random messages of size
// bytes and around SHA3-256's 136-byte block.
func verifySum256(size int, seed uint64) error {
	for i, n := range []int{size, 135, 136, 137, 272} {
		if err := newSum256Instance(n, seed+uint64(i)).Check(); err != nil {
			return err
		}
	}
	return nil
}

// absorbSum256 is SHA3-256 (FIPS 202) on keccak.AbsorbBlocks: the full
// 136-byte blocks, then the last block padded with the suffix 01 and
// pad10*1.
func absorbSum256(msg []byte) [32]byte {
	const rate = 136
	var a [25]uint64
	tail := msg[keccak.AbsorbBlocks(&a, msg, rate):]
	block := make([]byte, rate)
	copy(block, tail)
	block[len(tail)] ^= 0x06
	block[rate-1] ^= 0x80
	keccak.AbsorbBlocks(&a, block, rate)
	var out [32]byte
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint64(out[8*i:], a[i])
	}
	return out
}

// A shakeInstance squeezes a SHAKE128 stream 168 bytes at a time.
type shakeInstance struct {
	seed uint64
	h    *sha3.SHAKE
	buf  []byte
}

func newSHAKEInstance(seed uint64) *shakeInstance {
	in := &shakeInstance{seed: seed, h: sha3.NewSHAKE128(), buf: make([]byte, 168)}
	in.h.Read(in.buf) // the first read pays for absorbing; later reads permute once
	return in
}

// Run squeezes n blocks of 168 bytes: n permutations.
func (in *shakeInstance) Run(n int) {
	for i := 0; i < n; i++ {
		in.h.Read(in.buf)
	}
}

// Check absorbs a random message shorter than one block into a fresh
// SHAKE128 and compares four squeezed blocks with the same sponge run on
// keccak.Permute.
func (in *shakeInstance) Check() error {
	r := rand.New(rand.NewPCG(in.seed, 0x5ae))
	msg := make([]byte, r.IntN(168))
	for i := range msg {
		msg[i] = byte(r.Uint32())
	}
	h := sha3.NewSHAKE128()
	h.Write(msg)
	var a [25]uint64
	pad := make([]byte, 168)
	copy(pad, msg)
	pad[len(msg)] ^= 0x1f
	pad[167] ^= 0x80
	for i := 0; i < 21; i++ {
		a[i] = binary.LittleEndian.Uint64(pad[8*i:])
	}
	got := make([]byte, 168)
	for block := 0; block < 4; block++ {
		keccak.Permute(&a)
		h.Read(got)
		for i := 0; i < 21; i++ {
			if g := binary.LittleEndian.Uint64(got[8*i:]); g != a[i] {
				return &variant.Mismatch{Kernel: "keccak.x1", Variant: "ext=sha3",
					Input: fmt.Sprintf("%d-byte message (seed %#x), squeezed block %d", len(msg), in.seed, block),
					Index: i, Got: fmt.Sprintf("%#016x", g), Want: fmt.Sprintf("%#016x", a[i])}
			}
		}
	}
	return nil
}

func circlVariant(kernel, name string, x4s int, xpose bool) variant.Variant {
	return variant.Variant{Kernel: kernel, Name: name, External: true,
		New: func(_ int, seed uint64) variant.Instance { return newCirclInstance(kernel, name, x4s, xpose, seed) },
		Verify: func(_ int, seed uint64) error {
			return newCirclInstance(kernel, name, x4s, xpose, seed).Check()
		}}
}

// A circlInstance holds x4s circl StateX4s and, for xpose, the
// state-major states a caller would keep.
type circlInstance struct {
	kernel, name string
	seed         uint64
	xpose        bool
	st           []keccakf1600.StateX4
	lanes        [][]uint64
	major        [][4][25]uint64
}

func newCirclInstance(kernel, name string, x4s int, xpose bool, seed uint64) *circlInstance {
	in := &circlInstance{kernel: kernel, name: name, seed: seed, xpose: xpose,
		st: make([]keccakf1600.StateX4, x4s), lanes: make([][]uint64, x4s), major: make([][4][25]uint64, x4s)}
	r := rand.New(rand.NewPCG(seed, 0xc1c1))
	for q := range in.st {
		in.lanes[q] = in.st[q].Initialize(false)
		for i := range in.lanes[q] {
			in.lanes[q][i] = r.Uint64()
		}
		fromLanes(&in.major[q], in.lanes[q])
	}
	return in
}

// Run permutes every StateX4 n times (with the transposes for xpose).
func (in *circlInstance) Run(n int) {
	for i := 0; i < n; i++ {
		for q := range in.st {
			if in.xpose {
				toLanes(in.lanes[q], &in.major[q])
			}
			in.st[q].Permute()
			if in.xpose {
				fromLanes(&in.major[q], in.lanes[q])
			}
		}
	}
}

// Check permutes each StateX4 once and compares with keccak.PermuteX4.
func (in *circlInstance) Check() error {
	for q := range in.st {
		var want [4][25]uint64
		fromLanes(&want, in.lanes[q])
		keccak.PermuteX4(&want)
		in.st[q].Permute()
		for j := 0; j < 4; j++ {
			for i := 0; i < 25; i++ {
				if g := in.lanes[q][4*i+j]; g != want[j][i] {
					return &variant.Mismatch{Kernel: in.kernel, Variant: in.name,
						Input: fmt.Sprintf("random states (seed %#x), StateX4 %d state %d lane %d", in.seed, q, j, i),
						Index: 25*(4*q+j) + i, Got: fmt.Sprintf("%#016x", g), Want: fmt.Sprintf("%#016x", want[j][i])}
				}
			}
		}
	}
	return nil
}

// toLanes converts state-major states to circl's layout a[4i+j].
func toLanes(dst []uint64, src *[4][25]uint64) {
	for j := range src {
		for i, v := range src[j] {
			dst[4*i+j] = v
		}
	}
}

// fromLanes converts circl's layout to state-major states.
func fromLanes(dst *[4][25]uint64, src []uint64) {
	for j := range dst {
		for i := range dst[j] {
			dst[j][i] = src[4*i+j]
		}
	}
}
