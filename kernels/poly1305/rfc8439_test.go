package poly1305

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

// rfcVector is a test vector of RFC 8439: section 2.5.2 and Appendix A.3.
type rfcVector struct {
	name     string
	key, tag string // hex
	msg      []byte
}

const ietfText = "Any submission to the IETF intended by the Contributor for publication as all or part of an " +
	"IETF Internet-Draft or RFC and any statement made within the context of an IETF activity is considered " +
	"an \"IETF Contribution\". Such statements include oral statements in IETF sessions, as well as written " +
	"and electronic communications made at any time or place, which are addressed to"

const jabberwocky = "'Twas brillig, and the slithy toves\nDid gyre and gimble in the wabe:\n" +
	"All mimsy were the borogoves,\nAnd the mome raths outgrabe."

func unhex(s string) []byte {
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		panic(err)
	}
	return b
}

var (
	zeros32 = strings.Repeat("00", 32)
	zeros16 = strings.Repeat("00", 16)
	ones16  = strings.Repeat("ff", 16)
)

var rfcVectors = []rfcVector{
	{"2.5.2", "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b",
		"a8061dc1305136c6c22b8baf0c0127a9", []byte("Cryptographic Forum Research Group")},
	{"A.3 #1", zeros32 + zeros32, zeros16, make([]byte, 64)},
	{"A.3 #2", zeros16 + "36e5f6b5c5e06070f0efca96227a863e", "36e5f6b5c5e06070f0efca96227a863e", []byte(ietfText)},
	{"A.3 #3", "36e5f6b5c5e06070f0efca96227a863e" + zeros16, "f3477e7cd95417af89a6b8794c310cf0", []byte(ietfText)},
	{"A.3 #4", "1c9240a5eb55d38af333888604f6b5f0473917c1402b80099dca5cbc207075c0",
		"4541669a7eaaee61e708dc7cbcc5eb62", []byte(jabberwocky)},
	{"A.3 #5", "02" + strings.Repeat("00", 31), "03" + strings.Repeat("00", 15), unhex(ones16)},
	{"A.3 #6", "02" + strings.Repeat("00", 15) + ones16, "03" + strings.Repeat("00", 15),
		unhex("02" + strings.Repeat("00", 15))},
	{"A.3 #7", "01" + strings.Repeat("00", 31), "05" + strings.Repeat("00", 15),
		unhex(ones16 + "f0" + strings.Repeat("ff", 15) + "11" + strings.Repeat("00", 15))},
	{"A.3 #8", "01" + strings.Repeat("00", 31), zeros16,
		unhex(ones16 + "fb" + strings.Repeat("fe", 15) + strings.Repeat("01", 16))},
	{"A.3 #9", "02" + strings.Repeat("00", 31), "fa" + strings.Repeat("ff", 15),
		unhex("fd" + strings.Repeat("ff", 15))},
	{"A.3 #10", "0100000000000000" + "0400000000000000" + zeros16,
		"1400000000000000" + "5500000000000000",
		unhex("e33594d7505e43b9" + "0000000000000000" + "3394d7505e4379cd" + "0100000000000000" +
			zeros16 + "01" + strings.Repeat("00", 15))},
	{"A.3 #11", "0100000000000000" + "0400000000000000" + zeros16, "13" + strings.Repeat("00", 15),
		unhex("e33594d7505e43b9" + "0000000000000000" + "3394d7505e4379cd" + "0100000000000000" + zeros16)},
}

func TestRFCVectorLengths(t *testing.T) {
	// Lengths as stated in RFC 8439 A.3 (375 and 127 bytes).
	if len(ietfText) != 375 || len(jabberwocky) != 127 {
		t.Fatalf("vector texts have %d and %d bytes, want 375 and 127", len(ietfText), len(jabberwocky))
	}
}

// TestRFCVectors checks every implementation (generic, every runnable
// variant) and the public API on the RFC vectors.
func TestRFCVectors(t *testing.T) {
	for _, v := range rfcVectors {
		var key [32]byte
		copy(key[:], unhex(v.key))
		want := unhex(v.tag)
		for _, im := range runnable(t) {
			var got [16]byte
			sum(im.Fn, &got, v.msg, &key)
			if !bytes.Equal(got[:], want) {
				t.Errorf("%s: vector %s: tag %x, want %x", im.Name, v.name, got, want)
			}
		}
		var got [16]byte
		Sum(&got, v.msg, &key)
		if !bytes.Equal(got[:], want) {
			t.Errorf("Sum: vector %s: tag %x, want %x", v.name, got, want)
		}
		if !Verify((*[16]byte)(want), v.msg, &key) {
			t.Errorf("Verify: vector %s: rejected the correct tag", v.name)
		}
		mac := New(&key)
		mac.Write(v.msg)
		if !mac.Verify(want) {
			t.Errorf("MAC.Verify: vector %s: rejected the correct tag", v.name)
		}
		var ref [16]byte
		sumBig(&ref, v.msg, &key)
		if !bytes.Equal(ref[:], want) {
			t.Errorf("math/big reference: vector %s: tag %x, want %x", v.name, ref, want)
		}
	}
}
