package harness

import (
	"math"
	"strings"
	"testing"
)

// TestWriterWritesOnlyWhatReadersAccept checks that a sample whose ns/op
// the readers would refuse is not written, and that an optional value
// they would refuse (a NaN counter) is left out of its line: a sweep's
// file stays readable and resumable.
func TestWriterWritesOnlyWhatReadersAccept(t *testing.T) {
	g := testGroups(t, "")[0]
	var b strings.Builder
	rw := newResultWriter(&b, RunInfo{RunID: "00000000000000aa", Selection: SweepSelection{Budget: 1}.Config()})
	label := g.Contenders[0].Label
	for _, ns := range []float64{math.NaN(), 0, -5, math.Inf(1)} {
		if err := rw.write(g, label, &Sample{Iters: 10, NsPerOp: ns}, nil); err == nil || !strings.Contains(err.Error(), "sample not written") {
			t.Errorf("ns/op %v: error %v, want the sample refused", ns, err)
		}
	}
	if err := rw.write(g, label, &Sample{Iters: 10, NsPerOp: 5, Events: []float64{math.NaN(), 3}}, []string{"cycles", "instructions"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.Contains(out, "NaN") || strings.Contains(out, "+Inf") || !strings.Contains(out, " 5 ns/op 3 instructions/op\n") {
		t.Errorf("written:\n%s\nwant one line with ns/op and instructions/op only", out)
	}
	if !strings.Contains(out, "\nsweep-budget: 1ns\n") || !strings.Contains(out, "\nsweep-variant: \"\"\n") {
		t.Errorf("written:\n%s\nwant the selection's config lines", out)
	}
}
