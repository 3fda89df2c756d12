package vecgen

import (
	"bytes"
	"testing"
)

// TestLanes checks that the lane constants repeat their pattern over the
// whole vector of the tier, little-endian, and that Splat fills every
// 32-bit lane.
func TestLanes(t *testing.T) {
	g := &Gen{ISA: AVX512, Consts: NewConsts("t")}
	for _, c := range []struct {
		name string
		sym  string
		unit []byte
	}{
		{"Lanes16", g.Lanes16(0x0102, 0x0304).Symbol.Name, []byte{2, 1, 4, 3}},
		{"Lanes32", g.Lanes32(0x01020304).Symbol.Name, []byte{4, 3, 2, 1}},
		{"Lanes64", g.Lanes64(1, 2).Symbol.Name, []byte{1, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0}},
		{"Splat", g.Splat(7).Symbol.Name, []byte{7, 0, 0, 0}},
	} {
		want := bytes.Repeat(c.unit, 64/len(c.unit))
		if got := g.Consts.data[c.sym]; !bytes.Equal(got, want) {
			t.Errorf("%s: % x, want % x", c.name, got, want)
		}
	}
}
