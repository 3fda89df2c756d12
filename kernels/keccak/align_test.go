//go:build amd64 && !purego

package keccak

import (
	"flag"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/asmalign"
	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
)

var allPlacements = flag.Bool("keccak.placements", false, "check the loop placement of every variant (slow: about 0.1 s each)")

// TestLoopPlacement locates generated variants' round loops in the running
// binary and checks each head lands where its align knob asks: by default
// the keccak.x4 offset sweeps, the first member of every other offset
// sweep, and the first align=32 and align=64 variant of each kernel
// (sha3.256's absorb functions included); with -keccak.placements every
// variant.
func TestLoopPlacement(t *testing.T) {
	for _, nr := range widths {
		var vs []variant.Variant
		for _, m := range implsOf(nr)[1:] {
			vs = append(vs, record(m))
		}
		checkPlacements(t, vs, nr == 4)
	}
	var vs []variant.Variant
	for _, m := range absorbers()[1:] {
		vs = append(vs, m.record())
	}
	checkPlacements(t, vs, false)
}

// checkPlacements checks the loop heads of a kernel's variants vs: the
// default sample (every offset-sweep member if allSweeps) or, with
// -keccak.placements, all.
func checkPlacements(t *testing.T, vs []variant.Variant, allSweeps bool) {
	seen, swept := map[string]bool{}, map[string]bool{}
	for _, v := range vs {
		a, err := asmalign.Parse(v.Knob("align"))
		if err != nil {
			t.Fatalf("%s %s: %v", v.Kernel, v.Name, err)
		}
		base := strings.Replace(v.Name, "/align="+v.Knob("align"), "", 1)
		sample := v.OffsetSweep && (allSweeps || !swept[base]) || a.Boundary >= 32 && a.Offset == 0 && !seen[a.String()]
		if !sample && !*allPlacements {
			continue
		}
		if v.OffsetSweep {
			swept[base] = true
		} else {
			seen[a.String()] = true
		}
		l, err := asmmap.Locate(v.Symbol, v.LoopLabel)
		if err != nil {
			t.Fatalf("%s %s: %v", v.Kernel, v.Name, err)
		}
		if a.Boundary != 0 && int(l.Head%uint64(a.Boundary)) != a.Offset {
			t.Errorf("%s %s: loop head %#x at offset %d mod %d, want %d",
				v.Kernel, v.Name, l.Head, l.Head%uint64(a.Boundary), a.Boundary, a.Offset)
		}
	}
}
