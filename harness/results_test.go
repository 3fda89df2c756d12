package harness

import (
	"math"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/harness/resultfile"
)

// TestSweepWriterRecordsRunAndSelection checks what a sweep adds to each
// sample line: the run's selection and the kernel's config, TSC ticks
// per op and per unit, and events (a NaN counter left out, as
// resultfile.Writer leaves out what readers refuse).
func TestSweepWriterRecordsRunAndSelection(t *testing.T) {
	g := testGroups(t, "")[0]
	var b strings.Builder
	rw := newResultWriter(&b, resultfile.Run{RunID: "00000000000000aa", Selection: SweepSelection{Budget: 1}.Config()})
	s := &Sample{Iters: 10, NsPerOp: 5, TSCPerOp: 10, Events: []float64{math.NaN(), 3}}
	if err := writeSample(rw, g, g.Contenders[0].Label, s, []string{"cycles", "instructions"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"\nsweep-budget: 1ns\n", "\nsweep-variant: \"\"\n", "\nkernel: " + g.Kernel.Name + "\n",
		"\nevents: cycles,instructions\n", " 5 ns/op 10 tsc-cycles/op 0.625 tsc-cycles/B 3 instructions/op\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("written:\n%s\nwant %q", out, want)
		}
	}
}
