package main

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

// consts holds the read-only vectors (zetas, multipliers, permute
// indices) of one generated file, each a data symbol named after its
// content (prefix plus a hash), so identical vectors are stored once and a
// function's code does not depend on which functions were emitted before
// it.
type consts struct {
	prefix string
	data   map[string][]byte // symbol -> contents
}

func newConsts(prefix string) *consts { return &consts{prefix: prefix, data: map[string][]byte{}} }

// vector stores v as lanes of ebits (8, 16 or 32) bits in a vector of size
// bytes and returns its address.
func (c *consts) vector(v []int64, ebits, size int) operand.Mem {
	b := appendLanes(make([]byte, 0, size), v, ebits)
	if len(b) != size {
		panic(fmt.Sprintf("constant vector of %d bytes, want %d", len(b), size))
	}
	return c.symbol(b)
}

// block stores vectors contiguously and returns the address of the first.
func (c *consts) block(vs [][]int64, ebits, size int) operand.Mem {
	var b []byte
	for _, v := range vs {
		b = appendLanes(b, v, ebits)
	}
	return c.symbol(b)
}

// appendLanes appends v as little-endian lanes of ebits bits.
func appendLanes(b []byte, v []int64, ebits int) []byte {
	for _, x := range v {
		switch ebits {
		case 8:
			b = append(b, byte(x))
		case 16:
			b = binary.LittleEndian.AppendUint16(b, uint16(x))
		default:
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
	}
	return b
}

// symbol records contents b under its content name and returns its
// address.
func (c *consts) symbol(b []byte) operand.Mem {
	sum := sha256.Sum256(b)
	name := fmt.Sprintf("%s_%x", c.prefix, sum[:6])
	if old, ok := c.data[name]; ok && string(old) != string(b) {
		panic("constant name collision: " + name)
	}
	c.data[name] = b
	return operand.Mem{Symbol: operand.Symbol{Name: name, Static: true}, Base: reg.StaticBase}
}

// emit writes every constant as a DATA section, in name order.
func (c *consts) emit() {
	for _, name := range slices.Sorted(maps.Keys(c.data)) {
		b := c.data[name]
		GLOBL(name, attr.RODATA|attr.NOPTR)
		for off := 0; off < len(b); off += 8 {
			DATA(off, operand.U64(binary.LittleEndian.Uint64(b[off:])))
		}
	}
}
