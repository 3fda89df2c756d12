package harness

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
)

var equalMeans = map[string]float64{variant.GenericName: 100, "mode=fast/align=64": 100, "mode=slow/align=64": 100}

// TestInterleavingOrderRandomized checks that every round measures each
// live contender exactly once, in orders that vary from round to round.
func TestInterleavingOrderRandomized(t *testing.T) {
	fs := newFakeSweep(t, tempFile(t), equalMeans)
	fs.cfg.Race.MinSamples = fs.cfg.Race.MaxSamples // no verdict before MaxSamples
	groups := testGroups(t, "")[:1]
	runFake(t, fs, groups)
	n := len(groups[0].Contenders)
	rs := rounds(fs.calls, groups[0].Key(), n)
	if len(rs) != DefaultRaceParams.MaxSamples {
		t.Fatalf("%d rounds, want %d (MaxSamples)", len(rs), DefaultRaceParams.MaxSamples)
	}
	orders := map[string]bool{}
	first := map[int]int{}
	for r, ids := range rs {
		sorted := slices.Sorted(slices.Values(ids))
		if !slices.Equal(sorted, []int{0, 1, 2}[:n]) {
			t.Fatalf("round %d measured %v, want each of %d contenders once", r, ids, n)
		}
		orders[strings.Trim(strings.Join(strings.Fields(strings.Trim(fmtInts(ids), "[]")), ","), ",")] = true
		first[ids[0]]++
	}
	if len(orders) < 4 {
		t.Errorf("only %d distinct orders over %d rounds: order not randomized", len(orders), len(rs))
	}
	for id := 0; id < n; id++ {
		if first[id] == 0 {
			t.Errorf("contender %d (%s) never measured first in %d rounds", id, groups[0].Contenders[id].Label, len(rs))
		}
	}
}

func fmtInts(v []int) string {
	var b strings.Builder
	for _, x := range v {
		b.WriteString(" ")
		b.WriteString(string(rune('0' + x)))
	}
	return b.String()
}

// TestResultFileRoundTrip writes a sweep and reads it back with benchfmt.
func TestResultFileRoundTrip(t *testing.T) {
	path := tempFile(t)
	fs := newFakeSweep(t, path, map[string]float64{variant.GenericName: 100, "mode=fast/align=64": 80, "mode=slow/align=64": 130})
	groups := testGroups(t, "")
	runFake(t, fs, groups)
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := benchfmt.NewReader(f, path)
	var got []float64
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			if se, bad := r.Result().(*benchfmt.SyntaxError); bad {
				t.Errorf("syntax error in result file: %v", se)
			}
			continue
		}
		checkResult(t, res, fs.cfg.Run)
		v, _ := res.Value("sec/op")
		got = append(got, v*1e9)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(fs.calls) {
		t.Fatalf("read %d results back, the sweep measured %d", len(got), len(fs.calls))
	}
	for i, c := range fs.calls {
		if rel := got[i]/c.Value - 1; rel > 1e-12 || rel < -1e-12 {
			t.Errorf("result %d (%s id %d): read %v ns/op, measured %v", i, c.Group, c.ID, got[i], c.Value)
		}
	}
	for _, u := range []string{"sec/op", "tsc-cycles/op", "tsc-cycles/B"} {
		if r.Units().GetBetter(u) != -1 {
			t.Errorf("unit %s: better=lower metadata missing", u)
		}
	}
}

var headerKeys = []string{"goos", "goarch", "pkg", "cpu", "cpu-vendor", "cpu-family", "cpu-model", "cpu-stepping",
	"uarch", "dispatch-key", "features", "feature-level", "go", "tunelab", "run-id", "date", "tsc-hz", "kernel", "events"}

// checkResult checks a result's config: the host identity and run lines
// as resultfile.HostConfig gives them for this host and run (a CPU without
// a brand string, as QEMU's model-id= gives, has an empty "cpu"), the
// result's own package, kernel and events present.
func checkResult(t *testing.T, res *benchfmt.Result, run resultfile.Run) {
	t.Helper()
	host := map[string]string{}
	for _, kv := range resultfile.HostConfig(run) {
		host[kv[0]] = kv[1]
	}
	for _, k := range headerKeys {
		got := res.GetConfig(k)
		if want, ok := host[k]; ok && k != "pkg" {
			if got != want {
				t.Errorf("result %s: config %q = %q, want the host's %q", res.Name, k, got, want)
			}
		} else if got == "" {
			t.Errorf("result %s: config %q missing", res.Name, k)
		}
	}
	label, size, ok := resultfile.ParseBenchName(variant.LookupKernel(testKernel).Bench, res.Name.String(), true)
	if !ok || variant.Lookup(testKernel, label) == nil || (size != 16 && size != 32) {
		t.Errorf("result name %q: want HarnessTest/<variant>/size=16|32", res.Name)
	}
	ns, _ := res.Value("sec/op")
	tsc, ok2 := res.Value("tsc-cycles/op")
	perB, ok3 := res.Value("tsc-cycles/B")
	if !ok2 || !ok3 || !near(tsc, 2*ns*1e9) || !near(perB*float64(size), tsc) {
		t.Errorf("result %s: tsc-cycles/op %v, tsc-cycles/B %v inconsistent with %v ns/op", res.Name, tsc, perB, ns*1e9)
	}
}

// TestResume interrupts a sweep in its second group, then resumes it: the
// finished group is not measured again and the interrupted one continues
// from its samples.
func TestResume(t *testing.T) {
	path := tempFile(t)
	means := map[string]float64{variant.GenericName: 100, "mode=fast/align=64": 100, "mode=slow/align=64": 100}
	groups := testGroups(t, "")
	first := newFakeSweep(t, path, means)
	first.cfg.Race.MinSamples = first.cfg.Race.MaxSamples // every arm runs to MaxSamples
	maxN := DefaultRaceParams.MaxSamples
	first.at = 3*maxN + 10 // during group 2
	rep := runFake(t, first, groups)
	if !rep.Interrupted {
		t.Fatal("sweep not marked interrupted")
	}
	res, err := ReadResume(path, resultfile.HostIdentityConfig("", ""))
	if err != nil {
		t.Fatal(err)
	}
	g1, g2 := groups[0].Key(), groups[1].Key()
	if !res.Done[g1] || res.Done[g2] {
		t.Fatalf("resume file done marks = %v, want only %s", res.Done, g1)
	}
	prior := 0
	for _, v := range res.Samples[g2] {
		prior += len(v)
	}
	if prior != 10 || res.Run.RunID != first.cfg.Run.RunID {
		t.Fatalf("resume: %d samples of %s (want 10), run-id %q (want %q)", prior, g2, res.Run.RunID, first.cfg.Run.RunID)
	}
	second := newFakeSweep(t, path, means)
	second.cfg.Race.MinSamples = second.cfg.Race.MaxSamples
	second.cfg.Resume, second.cfg.Run = res, res.Run
	rep = runFake(t, second, groups)
	for _, c := range second.calls {
		if c.Group == g1 {
			t.Fatalf("resumed sweep measured finished group %s again", g1)
		}
	}
	if rep.Groups[0].Stop != "finished in resumed file" {
		t.Errorf("group %s stop = %q", g1, rep.Groups[0].Stop)
	}
	if got, want := len(second.calls), 3*maxN-prior; got != want {
		t.Errorf("resumed sweep took %d samples of %s, want %d (to MaxSamples from %d)", got, g2, want, prior)
	}
	final, err := ReadResume(path, resultfile.HostIdentityConfig("", ""))
	if err != nil {
		t.Fatal(err)
	}
	for label, v := range final.Samples[g2] {
		if len(v) != maxN {
			t.Errorf("%s %s: %d samples in the file, want %d", g2, label, len(v), maxN)
		}
	}
}

func TestSelect(t *testing.T) {
	groups, skips, err := Select(Selection{Kernels: []string{testKernel}})
	if err != nil {
		t.Fatal(err)
	}
	if len(groups) != 2 || groups[0].Size != 16 || groups[1].Size != 32 {
		t.Fatalf("default sizes: got %d groups, want sizes 16 and 32", len(groups))
	}
	var labels []string
	for _, c := range groups[0].Contenders {
		labels = append(labels, c.Label)
	}
	if want := []string{variant.GenericName, "mode=fast/align=64", "mode=slow/align=64"}; !slices.Equal(labels, want) {
		t.Errorf("default contenders %v, want %v (offset sweep and unrunnable excluded)", labels, want)
	}
	if len(skips) != 1 || skips[0].Variant != "mode=needs/align=64" || !strings.Contains(skips[0].Reason, "nosuchfeature") {
		t.Errorf("skips = %+v, want mode=needs/align=64 skipped for missing nosuchfeature", skips)
	}
	groups, _, _ = Select(Selection{Kernels: []string{testKernel}, Variant: "mode=fast", Sizes: []int{64, 8}, OffsetSweep: true})
	if len(groups) != 2 || groups[0].Size != 8 || len(groups[0].Contenders) != 2 {
		t.Errorf("--variant mode=fast --size 64,8 --offset-sweep: got %d groups, first %+v", len(groups), groups[0])
	}
	if _, _, err := Select(Selection{Kernels: []string{"no.such"}}); err == nil {
		t.Error("unknown kernel selected without error")
	}
	if _, _, err := Select(Selection{Kernels: []string{testKernel}, Variant: "mode=none"}); err == nil {
		t.Error("empty selection gave no error")
	}
}

func near(a, b float64) bool { return a/b-1 < 1e-9 && b/a-1 < 1e-9 }

// TestBusyHostDoesNotStall feeds only disturbed samples: the first
// maxDropped per arm are discarded, then the group keeps them (for every
// arm alike) and the race ends normally.
func TestBusyHostDoesNotStall(t *testing.T) {
	fs := newFakeSweep(t, tempFile(t), equalMeans)
	fs.disturb = true
	var log strings.Builder
	fs.cfg.Log = &log
	groups := testGroups(t, "")[:1]
	rep := runFake(t, fs, groups)
	r := rep.Groups[0].Race
	att, disc, kept := r.Disturbance()
	if kept == 0 || att != maxAttempts*len(fs.calls) || disc != att-kept {
		t.Errorf("disturbance: %d attempts, %d discarded, %d kept", att, disc, kept)
	}
	if rep.Groups[0].Stop == "budget" || !strings.Contains(log.String(), "host busy") {
		t.Errorf("stop %q, log %q: want a normal verdict after switching to keeping disturbed samples", rep.Groups[0].Stop, log.String())
	}
	total := 0
	for _, a := range r.Arms {
		total += len(a.Values)
	}
	if dropped := len(fs.calls) - total; dropped < maxDropped || dropped > len(r.Arms)*maxDropped {
		t.Errorf("%d samples dropped before the group kept disturbed ones; want %d..%d", dropped, maxDropped, len(r.Arms)*maxDropped)
	}
}

func TestBudgeterReservesFixedCosts(t *testing.T) {
	// The elapsed time is passed in, not read from the clock, so that a
	// test thread descheduled on a busy host computes the same shares.
	b := &budgeter{total: 100 * time.Second, weight: 10}
	if got := b.share(2, 0); got != 20*time.Second {
		t.Errorf("first group of 2 of 10 contenders: share %v, want 20s", got)
	}
	b.done(2, 5*time.Second) // 2.5 s fixed cost per contender
	// 4 of the 8 remaining: its fixed cost 10 s plus half the slack
	// 100 s - 8·2.5 s = 80 s.
	if got := b.share(4, 0); got != 50*time.Second {
		t.Errorf("second group: share %v, want 50s", got)
	}
	// 20 s into the sweep the slack is 60 s: 10 s plus half of it.
	if got := b.share(4, 20*time.Second); got != 40*time.Second {
		t.Errorf("second group 20s in: share %v, want 40s (the time spent comes off the slack)", got)
	}
	b.total = 10 * time.Second // overspent: only the fixed cost remains
	if got := b.share(4, 0); got != 10*time.Second {
		t.Errorf("overspent budget: share %v, want the fixed cost 10s", got)
	}
}
