package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
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

func TestCountersLive(t *testing.T) {
	out, stderr, code := runCLI(t, "counters", "--events", "task-clock,context-switches,cycles")
	if code != 0 {
		t.Fatalf("tunelab counters: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"task-clock", "ns", "context-switches", "cycles", "3 events"} {
		if !strings.Contains(out, want) && !strings.Contains(out, strings.Replace(want, "3 events", "of 3 events", 1)) {
			t.Errorf("counters output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && f[0] == "task-clock" && (f[2] != "available" || f[3] == "-") {
			t.Errorf("task-clock row %q: want available with a value", line)
		}
		if len(f) >= 4 && f[0] == "cycles" && f[2] == "unavailable" && (f[3] != "-" || !strings.Contains(line, "(E")) {
			t.Errorf("cycles row %q: unavailable needs no value and an errno reason", line)
		}
	}
	out, _, code = runCLI(t, "counters", "--json", "--events", "task-clock")
	var rep countersReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || len(rep.Events) != 1 || rep.Events[0].Value == nil || *rep.Events[0].Value <= 0 {
		t.Errorf("counters --json: exit %d, output %s: want one task-clock event with a positive value", code, out)
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
