// Command vpcompressw is the micro-test of a Bochs 2.7 bug: a zmm
// VPCOMPRESSW whose 32 mask bits are all set writes nothing (merging: the
// destination stays; zeroing: it becomes zero), while 31 set bits, a ymm
// with 16, and VPCOMPRESSB/D with full masks compress as specified. Run it
// natively and in the guest (.ci/bochs/run tigerlake OUT JOBS vpcompressw,
// built with CGO_ENABLED=0 GOEXPERIMENT=nogreenteagc): it prints "ok" and
// exits 0 where the instruction is right, and exits 1 with the words it
// got where it is not. variants/sample's rej12 compresses at most 30 words
// at a time for this reason.
package main

import (
	"fmt"
	"os"
)

//go:noescape
func compressW(dst, src *[32]uint16, mask uint32)

func main() {
	var src [32]uint16
	for i := range src {
		src[i] = uint16(100 + i)
	}
	bad := false
	for _, m := range []uint32{0xffffffff, 0x7fffffff, 0xaaaaaaaa} {
		var got, want [32]uint16
		for i := range got {
			got[i], want[i] = 0xeeee, 0xeeee
		}
		k := 0
		for i := range src {
			if m>>i&1 == 1 {
				want[k] = src[i]
				k++
			}
		}
		compressW(&got, &src, m)
		if got != want {
			fmt.Printf("VPCOMPRESSW zmm, mask %#08x: got %v, want %v\n", m, got, want)
			bad = true
		}
	}
	if bad {
		os.Exit(1)
	}
	fmt.Println("ok")
}
