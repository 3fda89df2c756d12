// Package opinputs derives the inputs of the whole-operation sweep kernels
// (keys' seeds, messages, encapsulation randomness) from a variant
// instance's seed, so that tunelab's compositions and the external
// references (lab/baselines) run exactly the same work: signing time,
// for one, depends on the message through FIPS 204's rejection loop.
package opinputs

import "encoding/binary"

// Bytes returns n pseudo-random bytes of the splitmix64 stream of seed.
func Bytes(seed uint64, n int) []byte {
	out := make([]byte, 0, n+8)
	for len(out) < n {
		seed += 0x9e3779b97f4a7c15
		z := (seed ^ seed>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		out = binary.LittleEndian.AppendUint64(out, z^z>>31)
	}
	return out[:n]
}

// Messages is how many messages one signing or verifying op covers, all of
// them: its time then averages over the rejection loop's restarts, and
// every op does the same work whatever the number of ops per sample.
const Messages = 8

// Message returns the i-th message of n bytes of seed's operation.
func Message(seed uint64, i, n int) []byte { return Bytes(^seed+uint64(i)*0x100000001b3, n) }
