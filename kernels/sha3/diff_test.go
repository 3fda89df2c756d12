package sha3

import (
	"bytes"
	"crypto/sha3"
	"fmt"
	"hash"
	"math/rand/v2"
	"testing"
)

// A hashCase pairs one SHA-3 function with crypto/sha3's.
type hashCase struct {
	name          string
	rate          int
	ours          func() *SHA3
	theirs        func() *sha3.SHA3
	sum, sumTheir func([]byte) []byte
}

var hashCases = []hashCase{
	{"SHA3-224", rate224, New224, sha3.New224,
		func(m []byte) []byte { d := Sum224(m); return d[:] }, func(m []byte) []byte { d := sha3.Sum224(m); return d[:] }},
	{"SHA3-256", rate256, New256, sha3.New256,
		func(m []byte) []byte { d := Sum256(m); return d[:] }, func(m []byte) []byte { d := sha3.Sum256(m); return d[:] }},
	{"SHA3-384", rate384, New384, sha3.New384,
		func(m []byte) []byte { d := Sum384(m); return d[:] }, func(m []byte) []byte { d := sha3.Sum384(m); return d[:] }},
	{"SHA3-512", rate512, New512, sha3.New512,
		func(m []byte) []byte { d := Sum512(m); return d[:] }, func(m []byte) []byte { d := sha3.Sum512(m); return d[:] }},
}

// A xofCase pairs one SHAKE or cSHAKE function with crypto/sha3's.
type xofCase struct {
	name          string
	rate          int
	ours          func() *SHAKE
	theirs        func() *sha3.SHAKE
	sum, sumTheir func([]byte, int) []byte // nil for cSHAKE
}

var xofCases = []xofCase{
	{"SHAKE128", rate128X, NewSHAKE128, sha3.NewSHAKE128, SumSHAKE128, sha3.SumSHAKE128},
	{"SHAKE256", rate256X, NewSHAKE256, sha3.NewSHAKE256, SumSHAKE256, sha3.SumSHAKE256},
	{"cSHAKE128", rate128X, func() *SHAKE { return NewCSHAKE128([]byte("N"), []byte("tunelab")) },
		func() *sha3.SHAKE { return sha3.NewCSHAKE128([]byte("N"), []byte("tunelab")) }, nil, nil},
	{"cSHAKE256", rate256X, func() *SHAKE { return NewCSHAKE256(nil, []byte("tunelab")) },
		func() *sha3.SHAKE { return sha3.NewCSHAKE256(nil, []byte("tunelab")) }, nil, nil},
}

// casesPerFunction is the number of random (length, split) cases per
// function: 10^4, or 300 under -short (the emulated matrix).
func casesPerFunction() int {
	if testing.Short() {
		return 300
	}
	return 10000
}

// boundaryLengths returns 0 and the lengths around the first five
// multiples of rate: k*rate-1, k*rate, k*rate+1.
func boundaryLengths(rate int) []int {
	ls := []int{0}
	for k := 1; k <= 5; k++ {
		ls = append(ls, k*rate-1, k*rate, k*rate+1)
	}
	return ls
}

// randomLength returns a boundary length half the time, else a length of
// up to six blocks.
func randomLength(rng *rand.Rand, rate int) int {
	if rng.IntN(2) == 0 {
		ls := boundaryLengths(rate)
		return ls[rng.IntN(len(ls))]
	}
	return rng.IntN(6*rate + 1)
}

// pieces splits b into random pieces (some empty, some longer than a
// block).
func pieces(rng *rand.Rand, b []byte, rate int) [][]byte {
	var ps [][]byte
	for len(b) > 0 || rng.IntN(4) == 0 {
		n := min(len(b), rng.IntN(2*rate+2))
		ps = append(ps, b[:n])
		b = b[n:]
		if len(b) == 0 && rng.IntN(2) == 0 {
			break
		}
	}
	return ps
}

func writeAll(h interface{ Write([]byte) (int, error) }, ps [][]byte) {
	for _, p := range ps {
		if n, err := h.Write(p); n != len(p) || err != nil {
			panic(fmt.Sprintf("Write(%d bytes) = %d, %v", len(p), n, err))
		}
	}
}

// TestDifferentialSHA3 compares every SHA-3 function with crypto/sha3 on
// random messages written in random pieces, boundary lengths included,
// with Sum (which must not change the state) taken midway and at the end,
// appending to a non-empty slice.
func TestDifferentialSHA3(t *testing.T) {
	for _, c := range hashCases {
		rng := rand.New(rand.NewPCG(1, uint64(c.rate)))
		for i := 0; i < casesPerFunction(); i++ {
			msg := randomBytes(rng, randomLength(rng, c.rate))
			ps := pieces(rng, msg, c.rate)
			if err := checkSHA3(c, msg, ps); err != nil {
				t.Fatalf("%s, case %d (%d-byte message in %d pieces): %v", c.name, i, len(msg), len(ps), err)
			}
		}
	}
}

func checkSHA3(c hashCase, msg []byte, ps [][]byte) error {
	want := c.sumTheir(msg)
	if got := c.sum(msg); !bytes.Equal(got, want) {
		return fmt.Errorf("one-shot Sum = %x, want %x", got, want)
	}
	h, ref := c.ours(), c.theirs()
	half := len(ps) / 2
	writeAll(h, ps[:half])
	writeAll(ref, ps[:half])
	if got, w := h.Sum([]byte("prefix")), ref.Sum([]byte("prefix")); !bytes.Equal(got, w) {
		return fmt.Errorf("Sum after %d pieces = %x, want %x", half, got, w)
	}
	writeAll(h, ps[half:])
	if got := h.Sum(nil); !bytes.Equal(got, want) {
		return fmt.Errorf("streaming Sum = %x, want %x", got, want)
	}
	if got := h.Sum(nil); !bytes.Equal(got, want) {
		return fmt.Errorf("second Sum = %x, want %x (Sum changed the state)", got, want)
	}
	return nil
}

// TestEverySplit hashes messages of boundary lengths split at every
// position into two writes (and, for SHAKE, read back split at every
// position into two reads).
func TestEverySplit(t *testing.T) {
	for _, c := range hashCases {
		for _, n := range everySplitLengths(c.rate) {
			msg := randomBytes(rand.New(rand.NewPCG(2, uint64(n))), n)
			want := c.sumTheir(msg)
			for i := 0; i <= n; i++ {
				h := c.ours()
				h.Write(msg[:i])
				h.Write(msg[i:])
				if got := h.Sum(nil); !bytes.Equal(got, want) {
					t.Fatalf("%s of %d bytes written as %d+%d: %x, want %x", c.name, n, i, n-i, got, want)
				}
			}
		}
	}
	for _, c := range xofCases {
		for _, n := range everySplitLengths(c.rate) {
			msg := randomBytes(rand.New(rand.NewPCG(3, uint64(n))), n)
			ref := c.theirs()
			ref.Write(msg)
			want := make([]byte, n)
			ref.Read(want)
			for i := 0; i <= n; i++ {
				h := c.ours()
				h.Write(msg[:i])
				h.Write(msg[i:])
				got := make([]byte, n)
				h.Read(got[:n-i])
				h.Read(got[n-i:])
				if !bytes.Equal(got, want) {
					t.Fatalf("%s of %d bytes written as %d+%d, read as %d+%d: differs at byte %d", c.name, n, i, n-i, n-i, i, firstDiff(got, want))
				}
			}
		}
	}
}

// everySplitLengths are the lengths TestEverySplit splits everywhere:
// r-1, r, r+1 and 2r+1, or only r+1 under -short.
func everySplitLengths(rate int) []int {
	if testing.Short() {
		return []int{rate + 1}
	}
	return []int{rate - 1, rate, rate + 1, 2*rate + 1}
}

// TestDifferentialSHAKE compares every SHAKE and cSHAKE function with
// crypto/sha3 on random messages written in random pieces and output read
// in random pieces, output lengths around the rate's multiples included.
func TestDifferentialSHAKE(t *testing.T) {
	for _, c := range xofCases {
		rng := rand.New(rand.NewPCG(4, uint64(c.rate)+uint64(len(c.name))))
		for i := 0; i < casesPerFunction(); i++ {
			msg := randomBytes(rng, randomLength(rng, c.rate))
			outLen := randomLength(rng, c.rate)
			if err := checkSHAKE(rng, c, msg, outLen); err != nil {
				t.Fatalf("%s, case %d (%d-byte message, %d-byte output): %v", c.name, i, len(msg), outLen, err)
			}
		}
	}
}

func checkSHAKE(rng *rand.Rand, c xofCase, msg []byte, outLen int) error {
	ref := c.theirs()
	ref.Write(msg)
	want := make([]byte, outLen)
	ref.Read(want)
	if c.sum != nil {
		if got := c.sum(msg, outLen); !bytes.Equal(got, want) {
			return fmt.Errorf("one-shot output differs at byte %d", firstDiff(got, want))
		}
		if got := c.sumTheir(msg, outLen); !bytes.Equal(got, want) {
			return fmt.Errorf("crypto/sha3's one-shot and streaming outputs differ")
		}
	}
	h := c.ours()
	writeAll(h, pieces(rng, msg, c.rate))
	got := make([]byte, outLen)
	for _, p := range pieces(rng, got, c.rate) {
		if n, err := h.Read(p); n != len(p) || err != nil {
			return fmt.Errorf("Read(%d bytes) = %d, %v", len(p), n, err)
		}
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("streaming output differs at byte %d", firstDiff(got, want))
	}
	return nil
}

// TestWriteAfterReadPanics checks that Write panics once Read has been
// called (even with an empty slice: the first Read pads), exactly when
// crypto/sha3's does.
func TestWriteAfterReadPanics(t *testing.T) {
	for _, read := range []int{0, 1, 500} {
		ours, theirs := NewSHAKE128(), sha3.NewSHAKE128()
		ours.Write([]byte("before"))
		theirs.Write([]byte("before"))
		ours.Read(make([]byte, read))
		theirs.Read(make([]byte, read))
		if got, want := panics(func() { ours.Write([]byte("after")) }), panics(func() { theirs.Write([]byte("after")) }); got != want || !got {
			t.Errorf("Write after a %d-byte Read: panics %v, crypto/sha3 panics %v (want both)", read, got, want)
		}
	}
	if panics(func() { NewSHAKE256().Write([]byte("absorbing")) }) {
		t.Errorf("Write before any Read panicked")
	}
}

func panics(f func()) (panicked bool) {
	defer func() { panicked = recover() != nil }()
	f()
	return false
}

// TestZeroValues checks that the zero SHA3 is SHA3-256 and the zero SHAKE
// is SHAKE256.
func TestZeroValues(t *testing.T) {
	msg := []byte("zero value")
	var h SHA3
	h.Write(msg)
	if want := sha3.Sum256(msg); !bytes.Equal(h.Sum(nil), want[:]) || h.Size() != 32 || h.BlockSize() != rate256 {
		t.Errorf("zero SHA3: Sum %x, Size %d, BlockSize %d; want SHA3-256", h.Sum(nil), h.Size(), h.BlockSize())
	}
	var x SHAKE
	x.Write(msg)
	got := make([]byte, 300)
	x.Read(got)
	if want := sha3.SumSHAKE256(msg, 300); !bytes.Equal(got, want) || x.BlockSize() != rate256X {
		t.Errorf("zero SHAKE: differs from SHAKE256 at byte %d, BlockSize %d", firstDiff(got, want), x.BlockSize())
	}
}

// TestResetAndClone checks Reset (to the customized initial state for
// cSHAKE) and that a clone continues independently.
func TestResetAndClone(t *testing.T) {
	for _, c := range xofCases {
		h := c.ours()
		h.Write(bytes.Repeat([]byte{1}, 3*c.rate+5))
		h.Read(make([]byte, 10))
		h.Reset()
		h.Write([]byte("after reset"))
		ref := c.theirs()
		ref.Write([]byte("after reset"))
		got, want := make([]byte, 2*c.rate), make([]byte, 2*c.rate)
		h.Read(got)
		ref.Read(want)
		if !bytes.Equal(got, want) {
			t.Errorf("%s after Reset: differs at byte %d", c.name, firstDiff(got, want))
		}
	}
	for _, c := range hashCases {
		h := c.ours()
		h.Write([]byte("shared prefix"))
		cl, err := h.Clone()
		if err != nil {
			t.Fatalf("%s Clone: %v", c.name, err)
		}
		h.Write([]byte(" and more"))
		cl.(hash.Hash).Write([]byte(", another ending"))
		if got, want := cl.(hash.Hash).Sum(nil), c.sumTheir([]byte("shared prefix, another ending")); !bytes.Equal(got, want) {
			t.Errorf("%s clone: %x, want %x", c.name, got, want)
		}
		if got, want := h.Sum(nil), c.sumTheir([]byte("shared prefix and more")); !bytes.Equal(got, want) {
			t.Errorf("%s original after Clone: %x, want %x", c.name, got, want)
		}
		h.Reset()
		if got, want := h.Sum(nil), c.sumTheir(nil); !bytes.Equal(got, want) {
			t.Errorf("%s after Reset: %x, want %x", c.name, got, want)
		}
	}
}

// TestSizes checks Size and BlockSize against crypto/sha3's.
func TestSizes(t *testing.T) {
	for _, c := range hashCases {
		h, ref := c.ours(), c.theirs()
		if h.Size() != ref.Size() || h.BlockSize() != ref.BlockSize() {
			t.Errorf("%s: Size %d, BlockSize %d; crypto/sha3 %d, %d", c.name, h.Size(), h.BlockSize(), ref.Size(), ref.BlockSize())
		}
	}
	for _, c := range xofCases {
		if h, ref := c.ours(), c.theirs(); h.BlockSize() != ref.BlockSize() {
			t.Errorf("%s: BlockSize %d; crypto/sha3 %d", c.name, h.BlockSize(), ref.BlockSize())
		}
	}
}

// TestNegativeSHAKELength checks that SumSHAKE panics on a negative length
// as crypto/sha3's does.
func TestNegativeSHAKELength(t *testing.T) {
	if !panics(func() { SumSHAKE128([]byte("x"), -1) }) || !panics(func() { sha3.SumSHAKE128([]byte("x"), -1) }) {
		t.Errorf("SumSHAKE128(msg, -1) did not panic (or crypto/sha3's did not)")
	}
}
