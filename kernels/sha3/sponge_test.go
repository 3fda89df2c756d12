package sha3

import "testing"

// TestExtractBothByteOrders checks the one-copy extraction of
// little-endian machines against the lane-by-lane encoding the others
// use, at every offset and length.
func TestExtractBothByteOrders(t *testing.T) {
	var a [25]uint64
	for i := range a {
		a[i] = 0x0102030405060708*uint64(i+1) ^ 0xf0e1d2c3b4a59687
	}
	defer func(le bool) { littleEndian = le }(littleEndian)
	for off := 0; off <= 200; off++ {
		for n := 0; off+n <= 200; n++ {
			var fast, slow [200]byte
			littleEndian = true
			extract(fast[:n], &a, off)
			littleEndian = false
			extract(slow[:n], &a, off)
			for i := 0; i < n; i++ {
				if want := byte(a[(off+i)/8] >> (8 * ((off + i) % 8))); slow[i] != want || fast[i] != want {
					t.Fatalf("off %d len %d byte %d: copy %#x, lanes %#x, want %#x", off, n, i, fast[i], slow[i], want)
				}
			}
		}
	}
}
