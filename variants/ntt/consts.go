package main

import (
	"encoding/binary"
	"fmt"

	"github.com/mmcloughlin/avo/attr"
	. "github.com/mmcloughlin/avo/build"
	"github.com/mmcloughlin/avo/operand"
	"github.com/mmcloughlin/avo/reg"
)

// consts is the read-only table of vectors (zetas, multipliers, permute
// indices) shared by all functions of one generated file; identical
// vectors are stored once.
type consts struct {
	name  string
	data  []byte
	index map[string]int
}

func newConsts(name string) *consts { return &consts{name: name, index: map[string]int{}} }

// vector stores v as lanes of ebits (8, 16 or 32) bits in a vector of size bytes,
// aligned to its size, and returns its address.
func (c *consts) vector(v []int64, ebits, size int) operand.Mem {
	b := make([]byte, 0, size)
	for _, x := range v {
		if ebits == 8 {
			b = append(b, byte(x))
		} else if ebits == 16 {
			b = binary.LittleEndian.AppendUint16(b, uint16(x))
		} else {
			b = binary.LittleEndian.AppendUint32(b, uint32(x))
		}
	}
	if len(b) != size {
		panic(fmt.Sprintf("constant vector of %d bytes, want %d", len(b), size))
	}
	key := string(b)
	off, ok := c.index[key]
	if !ok {
		for len(c.data)%size != 0 {
			c.data = append(c.data, 0)
		}
		off = len(c.data)
		c.data = append(c.data, b...)
		c.index[key] = off
	}
	return c.mem(off)
}

func (c *consts) mem(off int) operand.Mem {
	return operand.Mem{Symbol: operand.Symbol{Name: c.name, Static: true}, Base: reg.StaticBase, Disp: off}
}

// emit writes the table as a DATA section.
func (c *consts) emit() {
	for len(c.data)%64 != 0 {
		c.data = append(c.data, 0)
	}
	GLOBL(c.name, attr.RODATA|attr.NOPTR)
	for off := 0; off < len(c.data); off += 8 {
		DATA(off, operand.U64(binary.LittleEndian.Uint64(c.data[off:])))
	}
}

// block stores vectors contiguously (not deduplicated) and returns the
// address of the first.
func (c *consts) block(vs [][]int64, ebits, size int) operand.Mem {
	for len(c.data)%size != 0 {
		c.data = append(c.data, 0)
	}
	off := len(c.data)
	for _, v := range vs {
		for _, x := range v {
			if ebits == 16 {
				c.data = binary.LittleEndian.AppendUint16(c.data, uint16(x))
			} else {
				c.data = binary.LittleEndian.AppendUint32(c.data, uint32(x))
			}
		}
	}
	return c.mem(off)
}
