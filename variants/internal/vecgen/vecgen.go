// Package vecgen holds what the generators of the coefficient families
// (variants/cbd, matvec, pack, round, sample) share: the two vector tiers
// they target (AVX2 on ymm, AVX-512 on zmm) with the loads, stores and
// lane-wise operations whose encoding differs between them, a table of
// read-only constants named after their contents (also variants/ntt's),
// the Gen that their code generators embed (a tier and its constants:
// vectors of repeated lanes) and the counted loop and pointer parameters
// of their functions.
package vecgen

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// An ISA is a vector tier: its knob value and vector size.
type ISA struct {
	Name  string // knob value: "avx2" (ymm, VEX) or "avx512" (zmm, EVEX with opmasks)
	Bytes int    // vector size in bytes
}

// The tiers.
var (
	AVX2   = &ISA{Name: "avx2", Bytes: 32}
	AVX512 = &ISA{Name: "avx512", Bytes: 64}
)

// EVEX reports whether the tier is AVX-512.
func (s *ISA) EVEX() bool { return s.Bytes == 64 }

// Lanes returns the lanes of bits bits in a vector.
func (s *ISA) Lanes(bits int) int { return s.Bytes * 8 / bits }

// Vec returns a fresh vector register of the tier.
func (s *ISA) Vec() reg.VecVirtual {
	if s.EVEX() {
		return ZMM()
	}
	return YMM()
}

// Load returns a fresh register holding the vector at m.
func (s *ISA) Load(m operand.Mem) reg.VecVirtual {
	r := s.Vec()
	if s.EVEX() {
		VMOVDQU32(m, r)
	} else {
		VMOVDQU(m, r)
	}
	return r
}

// Store stores r at m.
func (s *ISA) Store(r reg.VecVirtual, m operand.Mem) {
	if s.EVEX() {
		VMOVDQU32(r, m)
	} else {
		VMOVDQU(r, m)
	}
}

// Splat32 returns a fresh register with the 32-bit value at m in every
// lane.
func (s *ISA) Splat32(m operand.Mem) reg.VecVirtual {
	r := s.Vec()
	VPBROADCASTD(m, r)
	return r
}

// Consts is a generator's table of read-only constants, each a data
// symbol named after its contents (prefix plus a hash), so that identical
// constants are stored once and a function's code does not depend on
// which functions were emitted before it.
type Consts struct {
	prefix string
	data   map[string][]byte
}

// NewConsts returns an empty table whose symbols start with prefix.
func NewConsts(prefix string) *Consts { return &Consts{prefix: prefix, data: map[string][]byte{}} }

// Bytes returns the address of the constant b.
func (c *Consts) Bytes(b []byte) operand.Mem {
	sum := sha256.Sum256(b)
	name := fmt.Sprintf("%s_%x", c.prefix, sum[:6])
	if old, ok := c.data[name]; ok && string(old) != string(b) {
		panic("constant name collision: " + name)
	}
	c.data[name] = b
	return operand.Mem{Symbol: operand.Symbol{Name: name, Static: true}, Base: reg.StaticBase}
}

// Emit writes every constant as a DATA section, in name order, padded to
// whole quadwords.
func (c *Consts) Emit() {
	for _, name := range slices.Sorted(maps.Keys(c.data)) {
		b := c.data[name]
		for len(b)%8 != 0 {
			b = append(b, 0)
		}
		GLOBL(name, attr.RODATA|attr.NOPTR)
		for off := 0; off < len(b); off += 8 {
			DATA(off, operand.U64(binary.LittleEndian.Uint64(b[off:])))
		}
	}
}
