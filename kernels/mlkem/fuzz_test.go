package mlkem

import (
	"encoding/binary"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/kernels/internal/nttfield"
)

// polyFrom derives a canonical polynomial from fuzz bytes (reused
// cyclically; missing bytes are zero).
func polyFrom(data []byte, off int) (p [256]int16) {
	for i := range p {
		var b [2]byte
		for k := range b {
			if n := len(data); n > 0 {
				b[k] = data[(off+2*i+k)%n]
			}
		}
		p[i] = int16(binary.LittleEndian.Uint16(b[:]) % Q)
	}
	return p
}

// FuzzVariants compares every runnable variant of every kernel with the
// generic code on inputs derived from the fuzz bytes.
func FuzzVariants(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff})
	f.Add([]byte{0x00, 0x0d, 0x01, 0x0d})
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := polyFrom(data, 0), polyFrom(data, 1)
		for _, k := range []struct {
			ref   nttfield.Unary[int16]
			impls []nttfield.Impl[nttfield.Unary[int16]]
		}{{nttGeneric, asmNTT}, {invNTTGeneric, asmInvNTT}} {
			want := a
			k.ref(&want)
			for _, v := range k.impls {
				if v.OffsetSweep || !dispatch.Has(v.Features...) {
					continue
				}
				got := a
				v.Fn(&got)
				if i := nttfield.FirstDiff(&got, &want); i >= 0 {
					t.Fatalf("%s: coefficient %d = %d, want %d (input %v)", v.Name, i, got[i], want[i], a)
				}
			}
		}
		var want [256]int16
		mulNTTGeneric(&want, &a, &b)
		for _, v := range asmMulNTT {
			if v.OffsetSweep || !dispatch.Has(v.Features...) {
				continue
			}
			var got [256]int16
			v.Fn(&got, &a, &b)
			if i := nttfield.FirstDiff(&got, &want); i >= 0 {
				t.Fatalf("mulntt %s: coefficient %d = %d, want %d", v.Name, i, got[i], want[i])
			}
		}
	})
}
