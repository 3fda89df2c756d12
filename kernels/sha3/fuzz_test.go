package sha3

import (
	"bytes"
	"testing"
)

// FuzzSum compares every function with crypto/sha3 on the fuzzer's
// message, written in two pieces split at split, with outLen bytes of XOF
// output read in two pieces split at the same position, and SHAKE128Many
// on the message's prefixes.
func FuzzSum(f *testing.F) {
	f.Add([]byte(""), uint16(0), uint16(32))
	f.Add(bytes.Repeat([]byte{0xa3}, 200), uint16(100), uint16(512))
	f.Add(make([]byte, 168), uint16(167), uint16(168))
	f.Add(make([]byte, 137), uint16(136), uint16(337))
	f.Fuzz(func(t *testing.T, msg []byte, split, outLen uint16) {
		at := int(split) % (len(msg) + 1)
		n := int(outLen) % 2048
		for _, c := range hashCases {
			if err := checkSHA3(c, msg, [][]byte{msg[:at], msg[at:]}); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		for _, c := range xofCases {
			want := theirOutput(c, msg, n)
			h := c.ours()
			h.Write(msg[:at])
			h.Write(msg[at:])
			got := make([]byte, n)
			cut := min(at, n)
			h.Read(got[:cut])
			h.Read(got[cut:])
			if !bytes.Equal(got, want) {
				t.Fatalf("%s: streaming output differs at byte %d", c.name, firstDiff(got, want))
			}
			if c.sum != nil && !bytes.Equal(c.sum(msg, n), want) {
				t.Fatalf("%s: one-shot output differs", c.name)
			}
		}
		ins, outs := make([][]byte, 0, 9), make([][]byte, 0, 9)
		for i := 0; i < 9; i++ {
			ins = append(ins, msg[:len(msg)*i/8])
			outs = append(outs, make([]byte, (n*i)/8))
		}
		for _, k := range manyKernels {
			k.run(outs, ins)
			if err := checkStreams(k, outs, ins); err != nil {
				t.Fatalf("%s: %v", k.name, err)
			}
		}
	})
}
