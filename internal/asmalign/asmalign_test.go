package asmalign

import "testing"

func TestParseRoundTrip(t *testing.T) {
	for _, s := range []string{"none", "16", "32", "64", "64+4", "64+63"} {
		a, err := Parse(s)
		if err != nil {
			t.Fatalf("Parse(%q): %v", s, err)
		}
		if got := a.String(); got != s {
			t.Errorf("Parse(%q).String() = %q", s, got)
		}
	}
	for _, s := range []string{"", "8", "64+64", "32+4", "64+-1", "x"} {
		if _, err := Parse(s); err == nil {
			t.Errorf("Parse(%q) succeeded, want error", s)
		}
	}
}

func TestNOPBytesLengthAndShape(t *testing.T) {
	for n := 0; n < 64; n++ {
		b := NOPBytes(n)
		if len(b) != n {
			t.Fatalf("NOPBytes(%d) has %d bytes", n, len(b))
		}
		// Every full 9-byte chunk is the 9-byte NOP; the rest is the NOP of that length.
		i := 0
		for ; i+9 <= n; i += 9 {
			if string(b[i:i+9]) != string(nops[9]) {
				t.Fatalf("NOPBytes(%d): bytes %d..%d = %x, want 9-byte NOP", n, i, i+9, b[i:i+9])
			}
		}
		if r := n - i; r > 0 && string(b[i:]) != string(nops[r]) {
			t.Fatalf("NOPBytes(%d): tail %x, want %d-byte NOP %x", n, b[i:], r, nops[r])
		}
	}
}
