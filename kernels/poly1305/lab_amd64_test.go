//go:build !purego

package poly1305

import (
	"testing"

	"github.com/tunelab/tunelab/internal/poly1305core"
)

// TestLabVariantsAllocateNothing checks that a lab variant's MAC, its
// benchmark loop and a MAC's blocks, run through poly1305core.Lab (func
// values, whose pointer arguments escape) on arguments already on the heap
// as an instance's are, allocate nothing: the lab wrappers keep the power
// tables and the state they build on their own stacks, so that the lab
// measures its variants without an allocation production lacks.
func TestLabVariantsAllocateNothing(t *testing.T) {
	checked := 0
	for _, im := range runnable(t) {
		if !im.Fn.InLab() {
			continue
		}
		checked++
		for _, n := range []int{15, 64, 1000, 16384} {
			in := newInstance(im.Name, im.Fn, n, 9)
			st, pc := new(state), new(powCache)
			st.Init(&in.key)
			full := in.msg[:n&^15]
			allocs := map[string]float64{
				"Sum":             testing.AllocsPerRun(10, func() { sum(in.v, &in.tag, in.msg, &in.key) }),
				"Run":             testing.AllocsPerRun(10, func() { in.Run(2) }),
				"Blocks":          testing.AllocsPerRun(10, func() { poly1305core.Lab.Blocks(in.v, st, full, nil) }),
				"Blocks (cached)": testing.AllocsPerRun(10, func() { poly1305core.Lab.Blocks(in.v, st, full, pc) }),
			}
			for f, a := range allocs {
				if a != 0 {
					t.Errorf("%s, %d bytes: %s allocates %v times per call", im.Name, n, f, a)
				}
			}
		}
	}
	if checked == 0 {
		t.Skip("no runnable lab variant in this build")
	}
}
