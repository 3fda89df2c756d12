package main

import (
	"encoding/binary"
	"fmt"

	"github.com/mmcloughlin/avo/operand"
	"github.com/tunelab/tunelab/variants/internal/vecgen"
)

// consts holds the read-only vectors (zetas, multipliers, permute
// indices) of one generated file in a vecgen.Consts table: each a data
// symbol named after its content, so identical vectors are stored once and
// a function's code does not depend on which functions were emitted
// before it.
type consts struct{ *vecgen.Consts }

func newConsts(prefix string) *consts { return &consts{vecgen.NewConsts(prefix)} }

// vector stores v as lanes of ebits (8, 16 or 32) bits in a vector of size
// bytes and returns its address.
func (c *consts) vector(v []int64, ebits, size int) operand.Mem {
	b := appendLanes(make([]byte, 0, size), v, ebits)
	if len(b) != size {
		panic(fmt.Sprintf("constant vector of %d bytes, want %d", len(b), size))
	}
	return c.Bytes(b)
}

// block stores vectors contiguously and returns the address of the first.
func (c *consts) block(vs [][]int64, ebits, size int) operand.Mem {
	var b []byte
	for _, v := range vs {
		b = appendLanes(b, v, ebits)
	}
	return c.Bytes(b)
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
