package keccak

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math/rand/v2"

	"github.com/tunelab/tunelab/kernels/variant"
)

// sha3State is the working memory of one SHA3-256 (kept by the caller, so
// that calls through the function value allocate nothing).
type sha3State struct {
	a     [25]uint64
	block [rate256]byte
	out   [32]byte
}

// digest sets st.out to SHA3-256(msg) computed with m: the full blocks of
// msg, then the final block padded with the SHA-3 suffix 01 and pad10*1
// (FIPS 202 sections 6.1 and 5.1), both absorbed by m; the digest is the
// first 32 bytes of the state.
func (m *absorber) digest(st *sha3State, msg []byte) {
	st.a = [25]uint64{}
	full := len(msg) - len(msg)%rate256
	m.Fn(&st.a, msg[:full], rate256)
	st.block = [rate256]byte{}
	copy(st.block[:], msg[full:])
	st.block[len(msg)-full] ^= 0x06
	st.block[rate256-1] ^= 0x80
	m.Fn(&st.a, st.block[:], rate256)
	for i := 0; i < 4; i++ {
		binary.LittleEndian.PutUint64(st.out[8*i:], st.a[i])
	}
}

// genericDigest returns SHA3-256(msg) computed with the generic code.
func genericDigest(msg []byte) [32]byte {
	var st sha3State
	genericAbsorber.digest(&st, msg)
	return st.out
}

// An sha3Instance is a prepared message for variant.Instance.
type sha3Instance struct {
	m    *absorber
	seed uint64
	msg  []byte
	st   sha3State
}

func newSHA3Instance(m *absorber, size int, seed uint64) *sha3Instance {
	in := &sha3Instance{m: m, seed: seed}
	in.msg = randomBytes(rand.New(rand.NewPCG(seed, 0x736861332d323536)), size)
	return in
}

// Run computes SHA3-256 of the prepared message n times.
func (in *sha3Instance) Run(n int) {
	for i := 0; i < n; i++ {
		in.m.digest(&in.st, in.msg)
	}
}

// Check recomputes the digest and compares it with the generic code's.
func (in *sha3Instance) Check() error {
	input := fmt.Sprintf("instance message (%d bytes, seed %#x)", len(in.msg), in.seed)
	return in.m.checkDigest(&in.st, input, in.msg, genericDigest(in.msg))
}

// randomBytes returns n (at least 0) pseudo-random bytes.
func randomBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, max(n, 0))
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// sha3KATs are published SHA3-256 digests (NIST FIPS 202 example
// values); TestSHA3KATs checks them against crypto/sha3.
var sha3KATs = []struct {
	name   string
	msg    []byte
	digest string
}{
	{"FIPS 202 example: empty message", nil, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"},
	{`FIPS 202 example: "abc"`, []byte("abc"), "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
	{"FIPS 202 example: 200 bytes of 0xa3", bytes.Repeat([]byte{0xa3}, 200), "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787"},
}

// spongeRates are the rates of SHA3-224/256/384/512 and SHAKE128/256.
var spongeRates = []int{144, 136, 104, 72, 168}

// verify checks m's SHA3-256 against the generic code on random messages
// of size bytes and of one block less a byte, one block, one block and a
// byte, two blocks; against the published digests; and m's absorbing
// alone at every SHA-3 and SHAKE rate on random states. A difference is
// a *variant.Mismatch.
func (m *absorber) verify(size int, seed uint64) error {
	r := rand.New(rand.NewPCG(seed, 0x766572696679))
	var st sha3State
	for _, n := range []int{size, rate256 - 1, rate256, rate256 + 1, 2 * rate256} {
		msg := randomBytes(r, n)
		input := fmt.Sprintf("random %d-byte message (seed %#x)", len(msg), seed)
		if err := m.checkDigest(&st, input, msg, genericDigest(msg)); err != nil {
			return err
		}
	}
	for _, k := range sha3KATs {
		want, err := hex.DecodeString(k.digest)
		if err != nil || len(want) != len(st.out) {
			return fmt.Errorf("sha3.256 %s: known answer %q: malformed digest %q", m.Name, k.name, k.digest)
		}
		if err := m.checkDigest(&st, k.name, k.msg, [32]byte(want)); err != nil {
			return err
		}
	}
	return m.verifyRates(r, seed)
}

// checkDigest returns a *variant.Mismatch at the first byte where m's
// digest of msg differs from want.
func (m *absorber) checkDigest(st *sha3State, input string, msg []byte, want [32]byte) error {
	m.digest(st, msg)
	for i := range want {
		if st.out[i] != want[i] {
			return &variant.Mismatch{Kernel: sha3Kernel, Variant: m.Name, Input: input, Index: i,
				Got: hex.EncodeToString(st.out[:]), Want: hex.EncodeToString(want[:])}
		}
	}
	return nil
}

// verifyRates compares m's absorbing with the generic code's at every
// sponge rate on random states, for a block less a byte (nothing to
// absorb), one block and three blocks and five bytes.
func (m *absorber) verifyRates(r *rand.Rand, seed uint64) error {
	for _, rate := range spongeRates {
		for _, n := range []int{rate - 1, rate, 3*rate + 5} {
			var got [25]uint64
			for i := range got {
				got[i] = r.Uint64()
			}
			want := got
			data := randomBytes(r, n)
			m.Fn(&got, data, rate)
			absorbGeneric(&want, data, rate)
			input := fmt.Sprintf("absorbing %d bytes at rate %d into a random state (seed %#x)", n, rate, seed)
			if err := compareLanes(m.Name, input, &got, &want); err != nil {
				return err
			}
		}
	}
	return nil
}

// compareLanes returns a *variant.Mismatch for the first differing lane
// of two sha3.256 states.
func compareLanes(name, input string, got, want *[25]uint64) error {
	for i := range got {
		if got[i] != want[i] {
			return &variant.Mismatch{Kernel: sha3Kernel, Variant: name, Input: input + fmt.Sprintf(", lane %d", i),
				Index: i, Got: fmt.Sprintf("%#016x", got[i]), Want: fmt.Sprintf("%#016x", want[i])}
		}
	}
	return nil
}
