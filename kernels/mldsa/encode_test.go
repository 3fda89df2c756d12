package mldsa

import (
	"bytes"
	"testing"
)

// specPack is BitsToBytes of the IntegerToBits of each value (FIPS 204
// Algorithms 9, 12, 16), bit by bit.
func specPack(vals *[n]uint32, bits uint) []byte {
	out := make([]byte, n*bits/8)
	for i, v := range vals {
		for b := range bits {
			k := uint(i)*bits + b
			out[k/8] |= byte(v>>b&1) << (k % 8)
		}
	}
	return out
}

// randomValues returns n values below 2^bits, the extremes first.
func randomValues(r *testRand, bits uint) *[n]uint32 {
	var v [n]uint32
	b := r.bytes(4 * n)
	for i := range v {
		v[i] = (uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16) & (1<<bits - 1)
	}
	v[0], v[1], v[n-1] = 0, 1<<bits-1, 1<<bits-1
	return &v
}

// TestPacking checks every packing and unpacking against specPack, for
// each coefficient width of FIPS 204: t1 (10 bits), t0 (13), s1 and s2 (3
// and 4), z (18 and 20), w1 (4 and 6).
func TestPacking(t *testing.T) {
	r := newTestRand("packing")
	for _, c := range []struct {
		name string
		bits uint
		base int32 // packed value = base - coefficient (BitPack), or the coefficient itself if simple
		pack func(dst []byte, w *poly)
	}{
		{"t1", t1Bits, 0, packT1},
		{"t0", t0Bits, 1 << (d - 1), packT0},
		{"η=2", 3, 2, params44.packEta},
		{"η=4", 4, 4, params65.packEta},
		{"z γ1=2^17", 18, 1 << 17, params44.packZ},
		{"z γ1=2^19", 20, 1 << 19, params65.packZ},
	} {
		for trial := range 4 {
			vals := randomValues(r, c.bits)
			if c.base != 0 {
				for i := range vals {
					vals[i] %= uint32(2*c.base + 1)
				}
			}
			var w poly
			for i, v := range vals {
				w[i] = int32(v)
				if c.base != 0 {
					w[i] = c.base - int32(v)
				}
			}
			want := specPack(vals, c.bits)
			got := make([]byte, len(want))
			c.pack(got, &w)
			if !bytes.Equal(got, want) {
				t.Fatalf("%s, trial %d: packing differs from the spec at byte %d", c.name, trial, firstDiff(got, want))
			}
			checkUnpack(t, c.name, &w, want, c.bits, c.base)
		}
	}
}

// checkUnpack decodes the packed polynomial want of w with unpackPoly
// (with and without slack after it) and, for z, unpackZ.
func checkUnpack(t *testing.T, name string, w *poly, packed []byte, bits uint, base int32) {
	t.Helper()
	sgn := int32(1)
	if base == 0 {
		sgn = -1
	}
	for _, src := range [][]byte{packed, append(append([]byte(nil), packed...), make([]byte, 9)...)} {
		var got poly
		unpackPoly(&got, src, bits, base, sgn)
		if got != *w {
			t.Fatalf("%s: unpackPoly of %d bytes differs", name, len(src))
		}
	}
	if bits < 18 {
		return
	}
	p := &params44
	if bits == 20 {
		p = &params65
	}
	var z, zHat poly
	p.unpackZ(&z, &zHat, packed)
	for i := range z {
		if z[i] != w[i] || zHat[i] != canon(w[i]) {
			t.Fatalf("%s: unpackZ coefficient %d = (%d, %d), want (%d, %d)", name, i, z[i], zHat[i], w[i], canon(w[i]))
		}
	}
}

// TestPackW1 checks w1Encode(HighBits(w)) against specPack of the spec's
// HighBits, for both γ2.
func TestPackW1(t *testing.T) {
	r := newTestRand("w1")
	for _, p := range []*params{&params44, &params65} {
		var w poly
		fillPoly(r, &w, false)
		w[0], w[1], w[2] = 0, Q-1, p.gamma2
		var vals [n]uint32
		for i, x := range w {
			hi, _ := specDecompose(x, p.gamma2)
			vals[i] = uint32(hi)
		}
		want := specPack(&vals, p.w1Bits)
		got := make([]byte, p.w1Bytes())
		p.packW1(got, &w)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: w1Encode differs from the spec at byte %d", p.name, firstDiff(got, want))
		}
	}
}

// TestHints packs hint vectors with HintBitPack and checks that hintRows
// accepts them and returns their rows; then it checks that each kind of
// malformed encoding is refused.
func TestHints(t *testing.T) {
	p := &params65
	var h [maxK][n]uint8
	h[0][3], h[0][200], h[2][0], h[2][255], h[5][17] = 1, 1, 1, 1, 1
	y := make([]byte, p.omega+p.k)
	p.packHints(y, &h)
	ends, ok := p.hintRows(y)
	if !ok {
		t.Fatalf("hintRows refuses a packed hint vector % x", y)
	}
	if want := [maxK]int{2, 2, 4, 4, 4, 5}; ends != want {
		t.Fatalf("hintRows ends = %v, want %v", ends, want)
	}
	if got := y[:5]; !bytes.Equal(got, []byte{3, 200, 0, 255, 17}) {
		t.Fatalf("packed positions % x", got)
	}
	for _, c := range []struct {
		name string
		edit func(y []byte)
	}{
		{"decreasing row end", func(y []byte) { y[p.omega+1] = 1 }},
		{"row end above ω", func(y []byte) { y[p.omega+p.k-1] = byte(p.omega + 1) }},
		{"equal positions in a row", func(y []byte) { y[1] = 3 }},
		{"decreasing positions in a row", func(y []byte) { y[0], y[1] = 200, 3 }},
		{"nonzero padding", func(y []byte) { y[p.omega-1] = 1 }},
		{"nonzero padding right after the last hint", func(y []byte) { y[5] = 9 }},
	} {
		bad := append([]byte(nil), y...)
		c.edit(bad)
		if _, ok := p.hintRows(bad); ok {
			t.Errorf("hintRows accepts a malformed encoding (%s): % x", c.name, bad)
		}
	}
	// Positions may restart in a new row, and ω hints fill the section.
	full := make([]byte, p.omega+p.k)
	for i := range p.omega {
		full[i] = byte(i)
	}
	full[p.omega+p.k-1] = byte(p.omega)
	if _, ok := p.hintRows(full); !ok {
		t.Errorf("hintRows refuses ω hints in the last row")
	}
}
