package nttfieldtest

import (
	"reflect"
	"testing"

	"github.com/tunelab/tunelab/internal/polyvec"
	"github.com/tunelab/tunelab/kernels/cpu"
)

// polyFrom derives a canonical polynomial from fuzz bytes: each coefficient
// is the next little-endian element-sized word (2 bytes for int16, 4 for
// int32) mod q, bytes reused cyclically; missing bytes are zero.
func polyFrom[E polyvec.Elem](data []byte, off int, q E) (p polyvec.Poly[E]) {
	w := int(reflect.TypeFor[E]().Size())
	for i := range p {
		var x uint64
		if n := len(data); n > 0 {
			for k := range w {
				x |= uint64(data[(off+w*i+k)%n]) << (8 * k)
			}
		}
		p[i] = E(x % uint64(q))
	}
	return p
}

// FuzzVariants compares every runnable variant of every kernel of fd with
// the generic code on inputs derived from the fuzz bytes. It is the body of
// each family's FuzzVariants.
func FuzzVariants[E polyvec.Elem](f *testing.F, fd Field[E]) {
	f.Add([]byte{})
	f.Add([]byte{0xff, 0xff})
	f.Add([]byte{0x00, 0x0d, 0x01, 0x0d})
	f.Fuzz(func(t *testing.T, data []byte) {
		a, b := polyFrom(data, 0, fd.Q), polyFrom(data, 1, fd.Q)
		for _, k := range fd.unaries() {
			want := a
			k.ref(&want)
			for _, v := range k.impls {
				if v.OffsetSweep || !cpu.Has(v.Features...) {
					continue
				}
				got := a
				v.Fn(&got)
				if i := polyvec.FirstDiff(&got, &want); i >= 0 {
					t.Fatalf("%s %s: coefficient %d = %d, want %d (input %v)", fd.Kernel(k.op), v.Name, i, got[i], want[i], a)
				}
			}
		}
		var want polyvec.Poly[E]
		fd.MulNTT(&want, &a, &b)
		for _, v := range fd.AsmMulNTT {
			if v.OffsetSweep || !cpu.Has(v.Features...) {
				continue
			}
			var got polyvec.Poly[E]
			v.Fn(&got, &a, &b)
			if i := polyvec.FirstDiff(&got, &want); i >= 0 {
				t.Fatalf("%s %s: coefficient %d = %d, want %d (inputs %v, %v)", fd.Kernel("mulntt"), v.Name, i, got[i], want[i], a, b)
			}
		}
	})
}
