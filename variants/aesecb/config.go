package main

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/variants/internal/isafeat"
)

// An isa is one instruction-set choice: legacy AES-NI on xmm registers, or
// VAES on ymm (2 blocks per register) or zmm (4 blocks per register).
type isa struct {
	name  string
	width int // 16-byte blocks per register
	regs  int // vector registers the variant may use
}

var (
	aesni   = isa{"aesni", 1, 16}
	vaes256 = isa{"vaes256", 2, 16}
	vaes512 = isa{"vaes512", 4, 32}
)

// A config is one point of the knob space: one generated function.
type config struct {
	bits     int  // key size: 128, 192 or 256
	dec      bool // decryption (AESDEC with the equivalent inverse schedule)
	isa      isa
	inflight int    // registers in flight per loop iteration
	keys     string // "regs": round keys held in registers; "mem": reloaded each round
	whiten   string // "xor": load, then XOR round key 0; "fold": XOR with the block as memory operand
	tail     string // "narrow": narrower registers for the rest; "mask": AVX-512 masked loads/stores
	align    asmalign.Align
	sweep    bool // offset-sweep member
}

// rounds returns Nr of FIPS 197 for the key size.
func (c config) rounds() int { return c.bits/32 + 6 }

// group is the number of blocks one main-loop iteration processes.
func (c config) group() int { return c.inflight * c.isa.width }

// kernel is the dispatch kernel name, e.g. "aes128.enc".
func (c config) kernel() string {
	if c.dec {
		return fmt.Sprintf("aes%d.dec", c.bits)
	}
	return fmt.Sprintf("aes%d.enc", c.bits)
}

// name is the variant name: knobs in the fixed order isa, inflight, keys,
// whiten, tail, align (whiten and tail only where they apply).
func (c config) name() string {
	parts := []string{"isa=" + c.isa.name, fmt.Sprintf("inflight=%d", c.inflight), "keys=" + c.keys}
	if c.isa.width > 1 {
		parts = append(parts, "whiten="+c.whiten, "tail="+c.tail)
	}
	return strings.Join(append(parts, "align="+c.align.String()), "/")
}

// symbol is the assembly function's name within the package.
func (c config) symbol() string {
	dir := "enc"
	if c.dec {
		dir = "dec"
	}
	s := fmt.Sprintf("aes%d%s_%s_i%d_k%s", c.bits, dir, c.isa.name, c.inflight, c.keys)
	if c.isa.width > 1 {
		s += "_w" + c.whiten + "_t" + c.tail
	}
	return s + "_a" + strings.ReplaceAll(c.align.String(), "+", "p")
}

// ceiling is what the variant's knobs allow it to require: its isa's
// tier, and AVX-512 for masked tails (AVX-512VL masked loads and stores on
// ymm registers).
func (c config) ceiling() isafeat.Ceiling {
	if c.tail == "mask" {
		return isafeat.Allowed(vaes512.name)
	}
	return isafeat.Allowed(c.isa.name)
}

// feasible reports whether the variant's registers fit the register file:
// inflight state registers plus either every round key or one key temporary.
func (c config) feasible() bool {
	keyRegs := 1
	if c.keys == "regs" {
		keyRegs = c.rounds() + 1
	}
	return c.inflight+keyRegs <= c.isa.regs
}

// defaultKnobs fills keys, whiten and tail with the family's defaults for
// an ISA: round keys in registers where they fit, plain XOR whitening and
// narrow tails (on Zen 4 a masked load whose masked-off lanes overlap a
// recent masked store, e.g. the previous call's output, waits ~12 ns).
func defaultKnobs(c config) config {
	c.keys = "regs"
	if !c.feasible() {
		c.keys = "mem"
	}
	if c.isa.width > 1 {
		c.whiten = "xor"
		c.tail = "narrow"
	}
	return c
}

// space enumerates every generated variant of one kernel (key size and
// direction): the full knob product at align=64, align none and 32 for the
// default knobs at 4 and 8 in flight, and the loop-head offset sweeps
// 64+4..64+60 of one base variant per tier (sweepISAs).
func space(bits int, dec bool) []config {
	var out []config
	a64 := asmalign.At(0)
	for _, is := range []isa{aesni, vaes256, vaes512} {
		whitens, tails := []string{""}, []string{""}
		if is.width > 1 {
			whitens, tails = []string{"xor", "fold"}, []string{"narrow", "mask"}
		}
		for _, n := range []int{1, 2, 4, 8} {
			for _, keys := range []string{"regs", "mem"} {
				for _, w := range whitens {
					for _, t := range tails {
						c := config{bits: bits, dec: dec, isa: is, inflight: n, keys: keys, whiten: w, tail: t, align: a64}
						if c.feasible() {
							out = append(out, c)
						}
					}
				}
			}
		}
		for _, n := range []int{4, 8} {
			for _, a := range []asmalign.Align{asmalign.None, {Boundary: 32}} {
				out = append(out, defaultKnobs(config{bits: bits, dec: dec, isa: is, inflight: n, align: a}))
			}
		}
	}
	for _, is := range sweepISAs {
		for off := 4; off < 64; off += 4 {
			c := defaultKnobs(config{bits: bits, dec: dec, isa: is, inflight: 4, align: asmalign.At(off)})
			c.sweep = true
			out = append(out, c)
		}
	}
	return out
}

// sweepISAs are the ISAs of the offset-sweep bases (default knobs, 4 in
// flight), one per tier: VAES zmm (AVX-512), VAES ymm (AVX2 with VAES),
// AES-NI xmm (every AES-NI CPU).
var sweepISAs = []isa{vaes512, vaes256, aesni}
