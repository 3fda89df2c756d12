package aesecb

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/kernelset"
	"github.com/tunelab/tunelab/kernels/variant"
)

// A cryptFunc crypts len(src)/16 blocks of src into dst (len(dst) >=
// len(src); dst == src allowed) with the schedule rk. An alias of the
// func type, which the lab table of lab/variants/aesecb spells out.
type cryptFunc = func(rk *[240]byte, dst, src []byte)

// A kernel is one dispatch kernel (key size and direction) with its
// slot: its registered variants and dispatch plan.
type kernel struct {
	name, bench string
	bits        int
	dec         bool
	slot        *kernelset.Slot[cryptFunc]
}

var kernels = [...]*kernel{
	{name: "aes128.enc", bench: "AES128Enc", bits: 128},
	{name: "aes128.dec", bench: "AES128Dec", bits: 128, dec: true},
	{name: "aes192.enc", bench: "AES192Enc", bits: 192},
	{name: "aes192.dec", bench: "AES192Dec", bits: 192, dec: true},
	{name: "aes256.enc", bench: "AES256Enc", bits: 256},
	{name: "aes256.dec", bench: "AES256Dec", bits: 256, dec: true},
}

// sizes are the sweep's message sizes in bytes.
var sizes = []int{16, 64, 256, 1024, 16384, 1 << 20}

// init plans each kernel among its generic code and the production
// variants (prodImpls); RegisterVariants registers them all for the lab.
func init() {
	for _, k := range kernels {
		k.slot = &kernelset.Slot[cryptFunc]{Name: k.name, Generic: k.generic(), Table: prodImpls(k.name)}
	}
}

// kernelFor returns the kernel for a key size in bits and a direction.
func kernelFor(bits int, dec bool) *kernel {
	for _, k := range kernels {
		if k.bits == bits && k.dec == dec {
			return k
		}
	}
	panic(fmt.Sprintf("aesecb: no kernel for %d-bit keys", bits))
}

func (k *kernel) rounds() int { return k.bits/32 + 6 }

// plan returns the kernel's current dispatch plan.
func (k *kernel) plan() []dispatch.Choice { return k.slot.Plan() }

// generic returns the generic Go implementation of the kernel.
func (k *kernel) generic() cryptFunc {
	nr := k.rounds()
	if k.dec {
		return func(rk *[240]byte, dst, src []byte) { decryptBlocksGeneric(rk, nr, dst, src) }
	}
	return func(rk *[240]byte, dst, src []byte) { encryptBlocksGeneric(rk, nr, dst, src) }
}

// spec describes the kernel for the lab (kernelset.Slot.AddLab).
func (k *kernel) spec() kernelset.Spec[cryptFunc] {
	dir := "encryption"
	if k.dec {
		dir = "decryption"
	}
	return kernelset.Spec[cryptFunc]{
		Family: "aes", Bench: k.bench, Sizes: sizes, SizeCheck: checkSize, SizeClasses: true,
		Unit: "B", UnitsPerOp: func(n int) float64 { return float64(n &^ 15) },
		Doc: fmt.Sprintf("AES-%d ECB %s of a message (multiple of 16 bytes)", k.bits, dir),
		Instance: func(name string, fn cryptFunc, size int, seed uint64) variant.Instance {
			return k.newInstance(name, fn, size, seed)
		},
		VerifyAt: k.verify, LoopTrips: loopTrips,
	}
}

// checkSize accepts whole, non-empty messages: ECB crypts 16-byte blocks
// and the kernels would drop a partial one.
func checkSize(n int) error {
	if n <= 0 || n%16 != 0 {
		return errors.New("AES ECB needs a positive multiple of 16 bytes")
	}
	return nil
}

// An instance is a random key and message of a fixed size.
type instance struct {
	k        *kernel
	name     string
	fn       cryptFunc
	rng      *rand.Rand
	rk       *[240]byte
	src, dst []byte
}

func (k *kernel) newInstance(name string, fn cryptFunc, size int, seed uint64) *instance {
	in := &instance{k: k, name: name, fn: fn, rng: rand.New(rand.NewPCG(seed, 0xae5))}
	in.src = make([]byte, size&^15)
	in.dst = make([]byte, len(in.src))
	in.refill()
	return in
}

// refill draws a fresh key and message.
func (in *instance) refill() {
	key := make([]byte, in.k.bits/8)
	fill(in.rng, key)
	fill(in.rng, in.src)
	in.rk = in.k.schedule(key)
}

// Run crypts the message n times.
func (in *instance) Run(n int) {
	for i := 0; i < n; i++ {
		in.fn(in.rk, in.dst, in.src)
	}
}

// Check crypts a fresh key and message and compares with the reference.
func (in *instance) Check() error {
	in.refill()
	return in.k.compare(in.name, in.fn, in.rk, in.src, "check input")
}

// schedule expands key for the kernel's direction.
func (k *kernel) schedule(key []byte) *[240]byte {
	s, err := newSchedule(key)
	if err != nil {
		panic(err)
	}
	if k.dec {
		return &s.dec
	}
	return &s.enc
}

// verify compares the variant with the generic reference on random,
// all-zero and all-one keys and messages of size bytes (rounded down to
// whole blocks) and on a random message one block shorter.
func (k *kernel) verify(name string, features []string, fn cryptFunc, size int, seed uint64) error {
	for _, f := range features {
		if !cpu.Has(f) {
			return fmt.Errorf("%s %s: host lacks CPU feature %s", k.name, name, f)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0xae5))
	n := size &^ 15
	cases := []struct {
		input string
		fill  func([]byte)
		n     int
	}{
		{fmt.Sprintf("random key and message, seed %#x", seed), func(b []byte) { fill(rng, b) }, n},
		{"all-zero key and message", func(b []byte) { clear(b) }, n},
		{"all-ones key and message", func(b []byte) { setAll(b, 0xff) }, n},
		{fmt.Sprintf("random, one block short, seed %#x", seed), func(b []byte) { fill(rng, b) }, max(n-16, 0)},
	}
	for _, c := range cases {
		key, src := make([]byte, k.bits/8), make([]byte, c.n)
		c.fill(key)
		c.fill(src)
		if err := k.compare(name, fn, k.schedule(key), src, fmt.Sprintf("%s (%d bytes)", c.input, c.n)); err != nil {
			return err
		}
	}
	return nil
}

// refWindow bounds the bytes the slow generic reference checks at each
// end of a long message; ECB blocks are independent and every code path
// of a variant (main loop, single-register loop, tail) runs within the
// first and last 4 KiB.
const refWindow = 4096

// refCache holds the generic reference's recent outputs: every variant
// of a kernel is checked on the same seeded inputs (verify --lean runs
// them one after another in a worker), and the constant-time generic AES
// is the slowest part of checking one, a hundred times over under an
// emulator.
var refCache = struct {
	sync.Mutex
	out map[[32]byte][]byte
}{out: map[[32]byte][]byte{}}

// refCacheSize bounds the outputs refCache keeps.
const refCacheSize = 64

// reference writes the generic reference's output for src under round
// keys rk to dst, from refCache when it has it.
func (k *kernel) reference(rk *[240]byte, dst, src []byte) {
	h := sha256.New()
	h.Write([]byte(k.name))
	h.Write(rk[:])
	h.Write(src)
	var key [32]byte
	h.Sum(key[:0])
	refCache.Lock()
	defer refCache.Unlock()
	if out, ok := refCache.out[key]; ok {
		copy(dst, out)
		return
	}
	k.generic()(rk, dst, src)
	if len(refCache.out) >= refCacheSize {
		clear(refCache.out)
	}
	refCache.out[key] = bytes.Clone(dst)
}

// compare runs fn on src and checks its output against the generic
// reference: every block of messages up to 2·refWindow bytes, else the
// first and last refWindow bytes.
func (k *kernel) compare(name string, fn cryptFunc, rk *[240]byte, src []byte, input string) error {
	got := make([]byte, len(src))
	fn(rk, got, src)
	want := make([]byte, len(src))
	if len(src) <= 2*refWindow {
		k.reference(rk, want, src)
	} else {
		k.reference(rk, want[:refWindow], src[:refWindow])
		tail := len(src) - refWindow
		k.reference(rk, want[tail:], src[tail:])
		copy(want[refWindow:tail], got[refWindow:tail])
	}
	for i := 0; i < len(src); i += 16 {
		if string(got[i:i+16]) != string(want[i:i+16]) {
			return &variant.Mismatch{Kernel: k.name, Variant: name, Input: input, Index: i,
				Got: hex.EncodeToString(got[i : i+16]), Want: hex.EncodeToString(want[i : i+16])}
		}
	}
	return nil
}

func fill(rng *rand.Rand, b []byte) {
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
}

func setAll(b []byte, v byte) {
	for i := range b {
		b[i] = v
	}
}

// loopTrips returns how often v's main loop runs for a message of size
// bytes: each iteration handles inflight registers of 1 (xmm), 2 (ymm) or 4
// (zmm) blocks; the remainder goes to the tail path.
func loopTrips(v *variant.Variant) func(size int) float64 {
	perReg := map[string]int{"aesni": 1, "vaes256": 2, "vaes512": 4}[v.Knob("isa")]
	inflight, _ := strconv.Atoi(v.Knob("inflight"))
	bytes := 16 * perReg * inflight
	if bytes == 0 {
		return nil
	}
	return func(size int) float64 { return float64(size / bytes) }
}
