package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/variant"
)

func TestPruneGroupKeepsPredictedBestAndUnpredictable(t *testing.T) {
	trips := func(n int) float64 { return float64(n / 64) }
	fast := &variant.Variant{Name: "isa=a", LoopLabel: "loop", LoopTrips: trips}
	near := &variant.Variant{Name: "isa=b", LoopLabel: "loop", LoopTrips: trips}
	slow := &variant.Variant{Name: "isa=c", LoopLabel: "loop", LoopTrips: trips}
	generic := &variant.Variant{Name: variant.GenericName}
	k := &variant.Kernel{Name: "test.prune"}
	g := &harness.Group{Kernel: k, Size: 1024, Contenders: []harness.Contender{
		{Label: fast.Name, Variant: fast}, {Label: near.Name, Variant: near},
		{Label: slow.Name, Variant: slow}, {Label: generic.Name, Variant: generic},
	}}
	perIter := map[*variant.Variant]float64{fast: 10, near: 10.5, slow: 20}
	pr := &pruning{pct: 10, groups: map[string]*groupPruning{}}
	gp := pr.pruneGroup(g, perIter)
	if got := strings.Join(gp.kept, " "); got != "isa=a isa=b isa=generic" {
		t.Errorf("kept %q, want the fast, the near (5%% off) and the unpredictable generic variant", got)
	}
	if len(gp.pruned) != 1 || gp.pruned[0] != "isa=c" || gp.predictedBest != "isa=a" {
		t.Errorf("pruned %v, predicted best %q; want [isa=c], isa=a", gp.pruned, gp.predictedBest)
	}
	if len(g.Contenders) != 3 {
		t.Errorf("group still has %d contenders, want 3", len(g.Contenders))
	}
	pr.groups[g.Key()] = gp
	pr.check = map[string]string{g.Key(): "isa=c"}
	var b bytes.Buffer
	pr.write(&b, &harness.Report{Groups: []*harness.GroupResult{{Group: g, Elapsed: 3 * time.Second}}})
	if !strings.Contains(b.String(), "winner PRUNED: isa=c") || !strings.Contains(b.String(), "about 1s saved") {
		t.Errorf("pruning report does not flag the pruned full-sweep winner or the saved time:\n%s", b.String())
	}
}
