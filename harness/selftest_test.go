package harness

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
)

// TestSelftestSchedule checks that every case gets exactly its verdicts
// and that they are spread evenly: at no point of the run is a case's
// share of its verdicts done ahead of an unfinished case's share by more
// than one of the lagging case's verdicts.
func TestSelftestSchedule(t *testing.T) {
	cases := []SelftestCase{{Name: "aa", Verdicts: 300}, {Name: "p1", Verdicts: 100}, {Name: "p2", Verdicts: 100}, {Name: "odd", Verdicts: 7}}
	order := selftestSchedule(cases)
	if len(order) != 507 {
		t.Fatalf("schedule has %d verdicts, want 507", len(order))
	}
	done := make([]int, len(cases))
	for n, i := range order {
		done[i]++
		for j, c := range cases {
			lag := float64(done[i])/float64(cases[i].Verdicts) - float64(done[j])/float64(c.Verdicts)
			if lag > 1/float64(c.Verdicts)+1e-12 && done[j] < c.Verdicts {
				t.Fatalf("after %d verdicts: %s has %d/%d done, %s only %d/%d", n+1, cases[i].Name, done[i], cases[i].Verdicts, c.Name, done[j], c.Verdicts)
			}
		}
	}
	for i, c := range cases {
		if done[i] != c.Verdicts {
			t.Errorf("case %s: %d verdicts scheduled, want %d", c.Name, done[i], c.Verdicts)
		}
	}
	if got := selftestSchedule(nil); len(got) != 0 {
		t.Errorf("schedule of no cases: %v", got)
	}
}

// TestSelftestCounts races an A/A case and a planted 10% slowdown through
// the fake worker: every verdict is counted, the planted one is detected
// each time, never the wrong way, and a 0.2% noise never fakes a 1% A/A
// difference.
func TestSelftestCounts(t *testing.T) {
	fs := newFakeSweep(t, tempFile(t), map[string]float64{"mode=fast/align=64": 100, "mode=slow/align=64": 110})
	fast, slow := variant.Lookup(testKernel, "mode=fast/align=64"), variant.Lookup(testKernel, "mode=slow/align=64")
	cases := []SelftestCase{
		{Name: "A/A", Base: fast, Other: fast, Verdicts: 5, Target: 0.6}, // 0 of 5: upper bound 52%
		{Name: "planted", Base: fast, Other: slow, Eps: 10, Verdicts: 3, Target: 0.95},
	}
	res, err := Selftest(context.Background(), fs.cfg, variant.LookupKernel(testKernel), cases, PairedJudge(0.02, 0.01))
	if err != nil {
		t.Fatal(err)
	}
	aa, pl := res[0], res[1]
	if aa.Verdicts != 5 || aa.Positives != 0 || aa.Wrong != 0 {
		t.Errorf("A/A: %d verdicts, %d positives, %d wrong; want 5, 0, 0", aa.Verdicts, aa.Positives, aa.Wrong)
	}
	if pl.Verdicts != 3 || pl.Positives != 3 || pl.Wrong != 0 {
		t.Errorf("planted 10%%: %d verdicts, %d detections, %d wrong; want 3, 3, 0", pl.Verdicts, pl.Positives, pl.Wrong)
	}
	if aa.Samples == 0 || aa.Time <= 0 {
		t.Errorf("A/A: %d samples in %v, want some", aa.Samples, aa.Time)
	}
	if m := SelftestMisses(res); len(m) != 0 {
		t.Errorf("misses %q, want none", m)
	}
}

// TestSelftestStopsOnCancel cancels the run: no verdict is raced after.
func TestSelftestStopsOnCancel(t *testing.T) {
	fs := newFakeSweep(t, tempFile(t), map[string]float64{"mode=fast/align=64": 100})
	fast := variant.Lookup(testKernel, "mode=fast/align=64")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err := Selftest(ctx, fs.cfg, variant.LookupKernel(testKernel), []SelftestCase{{Name: "A/A", Base: fast, Other: fast, Verdicts: 4}}, PairedJudge(0.02, 0.01))
	if err != nil || res[0].Verdicts != 0 || fs.samples != 0 {
		t.Errorf("cancelled selftest: %d verdicts, %d samples, err %v; want none", res[0].Verdicts, fs.samples, err)
	}
}

func TestSelftestLines(t *testing.T) {
	aa := SelftestCase{Name: "A/A same address", Verdicts: 300, Target: 0.07}
	pl := SelftestCase{Name: "planted", Eps: 2, Verdicts: 100, Target: 0.95}
	free := SelftestCase{Name: "planted", Eps: 1, Verdicts: 100}
	for _, c := range []struct {
		r    SelftestResult
		line string
		met  bool
	}{
		{SelftestResult{Case: aa, Verdicts: 300, Positives: 7, AFaster: 3, BFaster: 4}, "A/A same address: false positives 7/300 = 2.3% [0.9%, 4.7%] (target upper bound ≤ 7%): ok; named faster a 3, b 4 (chance: p=1)", true},
		{SelftestResult{Case: aa, Verdicts: 30, Positives: 2, BFaster: 2}, "A/A same address: false positives 2/30 = 6.7% [0.8%, 22.1%] (target upper bound ≤ 7%): MISSED; named faster a 0, b 2 (chance: p=0.5)", false},
		{SelftestResult{Case: aa, Verdicts: 300, Positives: 12, AFaster: 6, BFaster: 6}, "A/A same address: false positives 12/300 = 4.0% [2.1%, 6.9%] (target upper bound ≤ 7%): ok; named faster a 6, b 6 (chance: p=1)", true},
		{SelftestResult{Case: aa, Verdicts: 300, Positives: 13, AFaster: 6, BFaster: 7}, "A/A same address: false positives 13/300 = 4.3% [2.3%, 7.3%] (target upper bound ≤ 7%): MISSED; named faster a 6, b 7 (chance: p=1)", false},
		{SelftestResult{Case: pl, Verdicts: 100, Positives: 100}, "detection of planted eps=2% 100/100 = 100.0% [96.4%, 100.0%] (target ≥ 95%): ok", true},
		{SelftestResult{Case: pl, Verdicts: 100, Positives: 94}, "detection of planted eps=2% 94/100 = 94.0% [87.4%, 97.8%] (target ≥ 95%): MISSED", false},
		{SelftestResult{Case: free, Verdicts: 100, Positives: 50}, "detection of planted eps=1% 50/100 = 50.0% [39.8%, 60.2%] (no target)", true},
		{SelftestResult{Case: pl}, "detection of planted eps=2% 0/0 = 0.0% [0.0%, 100.0%] (target ≥ 95%): MISSED", false},
	} {
		if got := c.r.Line(); got != c.line {
			t.Errorf("Line():\n got %q\nwant %q", got, c.line)
		}
		if c.r.Met() != c.met || (c.r.Miss() == "") != c.met {
			t.Errorf("%q: Met() = %v, Miss() = %q; want met %v", c.line, c.r.Met(), c.r.Miss(), c.met)
		}
	}
}

func TestSelftestOutcome(t *testing.T) {
	ok := []*SelftestResult{
		{Case: SelftestCase{Name: "A/A", Target: 0.07}, Verdicts: 300, Positives: 3},
		{Case: SelftestCase{Name: "p1", Eps: 1}, Verdicts: 100, Positives: 40},
		{Case: SelftestCase{Name: "p2", Eps: 2, Target: 0.95}, Verdicts: 100, Positives: 99},
	}
	if got := SelftestOutcome(ok); !strings.HasPrefix(got, "selftest ok: 2 of 2 targets met") {
		t.Errorf("outcome %q, want every target met", got)
	}
	bad := append(ok[:1:1], &SelftestResult{Case: SelftestCase{Name: "p2", Eps: 2, Target: 0.95}, Verdicts: 100, Positives: 90})
	bad[0] = &SelftestResult{Case: bad[0].Case, Verdicts: 30, Positives: 2, Deciding: []float64{0.013, -0.04}}
	want := "selftest FAILED: 2 of 2 targets missed: A/A false positives 6.7% [0.8%, 22.1%]: upper bound above 7%; detection at eps=2% 90.0% < 95%"
	if got := SelftestOutcome(bad); got != want {
		t.Errorf("outcome\n got %q\nwant %q", got, want)
	}
	var b bytes.Buffer
	WriteSelftest(&b, bad, 0.01)
	for _, w := range []string{"time/verdict", "disturbance:", "A/A: false positives 2/30 = 6.7% [0.8%, 22.1%]", "MISSED",
		"promise not shown: 30 A/A verdicts"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("WriteSelftest output lacks %q:\n%s", w, b.String())
		}
	}
}

// TestWidenedThreshold checks the threshold at which a missed A/A
// target would have been met: positives whose deciding estimate is at
// most the threshold drop out.
func TestWidenedThreshold(t *testing.T) {
	r := &SelftestResult{Case: SelftestCase{Name: "A/A", Target: 0.07}, Verdicts: 300, Positives: 20}
	for i := range 20 {
		r.Deciding = append(r.Deciding, (0.011+0.001*float64(i))*float64(1-2*(i%2)))
	}
	// 20/300: upper bound 10.1%; 12/300 is the most that meets 7%.
	got := WidenedThreshold(r, 0.01)
	kept := 0
	for _, d := range r.Deciding {
		if d > got || -d > got {
			kept++
		}
	}
	if _, hi := stats.ClopperPearson95(kept, 300); hi > 0.07 || kept != 12 {
		t.Errorf("WidenedThreshold = %.4f keeps %d of 20 positives (upper bound %.3f), want the smallest threshold keeping 12", got, kept, hi)
	}
	r.Positives, r.Deciding = 3, r.Deciding[:3]
	if got := WidenedThreshold(r, 0.01); got != 0.01 {
		t.Errorf("met target: WidenedThreshold = %g, want the threshold itself", got)
	}
}

// TestSelftestLayout races placement copies through the fake worker: a
// copy 3% slower than its base (layout) is named slower every time and
// sets the layout floor; an identical copy sets none.
func TestSelftestLayout(t *testing.T) {
	fs := newFakeSweep(t, tempFile(t), map[string]float64{"mode=fast/align=64": 100, "mode=slow/align=64": 103, variant.GenericName: 100})
	fast, slow, twin := variant.Lookup(testKernel, "mode=fast/align=64"), variant.Lookup(testKernel, "mode=slow/align=64"), variant.Lookup(testKernel, variant.GenericName)
	cases := []SelftestCase{
		{Name: "A/A same address", Base: fast, Other: fast, Verdicts: 4, Target: 0.07},
		{Name: "A/A twin", Base: fast, Other: twin, Verdicts: 4},
		{Name: "A/A moved", Base: fast, Other: slow, Verdicts: 4},
	}
	res, err := Selftest(context.Background(), fs.cfg, variant.LookupKernel(testKernel), cases, PairedJudge(0.02, 0.01))
	if err != nil {
		t.Fatal(err)
	}
	l := SelftestLayout(res)
	if l.Placements != 2 || l.Verdicts != 8 || l.Positives != 4 || l.AFaster != 4 || l.Where != "A/A moved" || l.Floor < 0.028 || l.Floor > 0.032 {
		t.Errorf("layout %+v: want 2 placements, 4 of 8 positive (a faster each time), floor about 3%% at A/A moved", l)
	}
	if res[2].DirectionP() > 0.2 || res[0].Positives != 0 {
		t.Errorf("direction p %g of a consistent layout effect, same-address positives %d", res[2].DirectionP(), res[0].Positives)
	}
	var b bytes.Buffer
	WriteSelftest(&b, res, 0.01)
	for _, w := range []string{"layout floor 3.0", "exceeds the 1% threshold", "promise not shown: 4 A/A verdicts", "per-verdict differences"} {
		if !strings.Contains(b.String(), w) {
			t.Errorf("WriteSelftest output lacks %q:\n%s", w, b.String())
		}
	}
}
