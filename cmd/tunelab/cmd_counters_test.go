package main

import (
	"bytes"
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/perfcounters"
)

func fixedCountersReport() *countersReport {
	f := func(v float64) *float64 { return &v }
	return &countersReport{
		Uarch: "Zen 4", Paranoid: "2", TSCHz: 2.6e9, TSCSource: "cpuid leaf 0x15 (crystal clock x TSC ratio)",
		Work: workLoopDoc, WorkTSC: 52_000_123,
		Events: []counterRow{
			{Name: "cycles", Kind: "hardware", Reason: "no PMU / event not supported (ENOENT): no hardware PMU is exposed (e.g. in a VM) or it lacks this event", Unit: "count"},
			{Name: "instructions", Kind: "hardware", Available: true, Value: f(41_234_567), Unit: "count", Multiplexed: true, OnCounter: 0.5},
			{Name: "opcache-hits", Kind: "raw", Available: true, Reason: "own group (did not fit the main group); enabled but never scheduled on a counter: no value", Unit: "count", Multiplexed: true},
			{Name: "task-clock", Kind: "software", Available: true, Value: f(20_001_002.4), Unit: "nanoseconds"},
			{Name: "context-switches", Kind: "software", Available: true, Value: f(0), Unit: "count"},
		},
	}
}

func TestCountersTextGolden(t *testing.T) {
	var b bytes.Buffer
	fixedCountersReport().writeText(&b)
	golden(t, "counters_text.golden", b.String())
}

func TestCountersJSONGolden(t *testing.T) {
	b, err := json.MarshalIndent(fixedCountersReport(), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "counters_json.golden", string(b)+"\n")
}

func TestGroupDigits(t *testing.T) {
	tests := map[float64]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 1234567.6: "1,234,568", -42000: "-42,000"}
	for v, want := range tests {
		if got := groupDigits(v); got != want {
			t.Errorf("groupDigits(%v) = %q, want %q", v, got, want)
		}
	}
}

// taskClockStatus opens task-clock on this thread and returns its status:
// unavailable where the host does not let the process count (a
// container's seccomp profile, perf_event_paranoid without CAP_PERFMON).
func taskClockStatus(t *testing.T) perfcounters.EventStatus {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	specs, err := perfcounters.ParseSpecs("task-clock")
	if err != nil {
		t.Fatal(err)
	}
	g, err := perfcounters.Open(specs)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	return g.Status()[0]
}

// TestCountersLive counts on the host. Where task-clock can be opened its
// row must have a value; where the host refuses it (as it may every
// event), the row must say unavailable, with no value and the kernel's
// reason: unavailable events are never reported as 0.
func TestCountersLive(t *testing.T) {
	tc := taskClockStatus(t)
	if !tc.Available {
		t.Logf("task-clock cannot be opened here (%s): checking that counters says so", tc.Reason)
	}
	out, stderr, code := runCLI(t, "counters", "--events", "task-clock,context-switches,cycles")
	if code != 0 {
		t.Fatalf("tunelab counters: exit %d, stderr %q", code, stderr)
	}
	wants := []string{"task-clock", "context-switches", "cycles", "3 events"}
	if tc.Available {
		wants = append(wants, "ns")
	}
	for _, want := range wants {
		if !strings.Contains(out, want) && !strings.Contains(out, strings.Replace(want, "3 events", "of 3 events", 1)) {
			t.Errorf("counters output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && f[0] == "task-clock" && tc.Available && (f[2] != "available" || f[3] == "-") {
			t.Errorf("task-clock row %q: want available with a value", line)
		}
		if len(f) >= 4 && f[2] == "unavailable" && (f[3] != "-" || !strings.Contains(line, "(E")) {
			t.Errorf("%s row %q: unavailable needs no value and an errno reason", f[0], line)
		}
		if len(f) >= 4 && f[0] == "task-clock" && !tc.Available && f[2] != "unavailable" {
			t.Errorf("task-clock row %q: want unavailable, as perf_event_open said (%s)", line, tc.Reason)
		}
	}
	out, _, code = runCLI(t, "counters", "--json", "--events", "task-clock")
	var rep countersReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Events) != 1 {
		t.Fatalf("counters --json: exit %d, output %s: want one task-clock event", code, out)
	}
	switch e := rep.Events[0]; {
	case tc.Available && (!e.Available || e.Value == nil || *e.Value <= 0):
		t.Errorf("counters --json: task-clock %+v, want available with a positive value", e)
	case !tc.Available && (e.Available || e.Value != nil || e.Reason == ""):
		t.Errorf("counters --json: task-clock %+v, want unavailable with no value and a reason (%s)", e, tc.Reason)
	}
}

func TestCountersUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"counters", "--events", "bogus"}, {"counters", "extra"}, {"counters", "--nope"}} {
		_, stderr, code := runCLI(t, args...)
		if code != 2 {
			t.Errorf("tunelab %v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}
