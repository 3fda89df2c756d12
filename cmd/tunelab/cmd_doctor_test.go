package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/internal/stats"
)

// vmFacts is a noisy VM without a PMU, like the CI machines.
func vmFacts() doctorFacts {
	return doctorFacts{
		PMUReason: "no PMU / event not supported (ENOENT): no hardware PMU is exposed (e.g. in a VM) or it lacks this event",
		Paranoid:  2, Governors: map[string]int{}, Siblings: "0", Hypervisor: "KVMKVMKVM",
		TSCFlags: map[string]bool{"constant_tsc": true, "nonstop_tsc": true, "tsc_known_freq": true},
		TSCHz:    2.1e9, TSCSource: "/proc/cpuinfo bogomips/2, agrees with calibration", Clock: "tsc",
		Load1: 3.5, NCPU: 2, Busy: []busyProc{{PID: 2150, Comm: "keccak.test", Percent: 98}},
		Noise: noiseResult{Samples: 30, Span: 2 * time.Millisecond, CV: 0.0523, RobustCV: 0.012, MedianMs: 2.014, Spread: 0.31, Pinned: "CPU 1"},
		Layout: harness.Layout{Placements: 6, Verdicts: 12, Largest: stats.Paired{N: 540, Ratio: 0.0005, Lo: -0.0012, Hi: 0.0021},
			LargestWhere: "A/A copy=2 (other address)"},
		LayoutMeasured: true,
	}
}

// metalFacts is a tuned bare-metal machine.
func metalFacts() doctorFacts {
	return doctorFacts{
		PMUOK: true, Paranoid: 1, Governors: map[string]int{"performance": 16}, Boost: "0",
		SMTActive: "0", Siblings: "3",
		TSCFlags: map[string]bool{"constant_tsc": true, "nonstop_tsc": true},
		TSCHz:    2.6e9, TSCSource: "cpuid leaf 0x15 (crystal clock x TSC ratio)", Clock: "tsc",
		Load1: 0.02, NCPU: 16,
		Noise: noiseResult{Samples: 30, Span: 2 * time.Millisecond, CV: 0.0021, RobustCV: 0.0015, MedianMs: 2.001, Spread: 0.008, Pinned: "CPU 3"},
		Layout: harness.Layout{Placements: 6, Verdicts: 12, Largest: stats.Paired{N: 700, Ratio: -0.0002, Lo: -0.0006, Hi: 0.0003},
			LargestWhere: "A/A copy=1 (other address)"},
		LayoutMeasured: true,
	}
}

// laptopFacts has every knob in a bad state.
func laptopFacts() doctorFacts {
	return doctorFacts{
		PMUOK: true, Paranoid: 3, Governors: map[string]int{"powersave": 6, "performance": 2}, NoTurbo: "0",
		SMTActive: "1", Siblings: "0,4", HVSysfs: "xen",
		TSCFlags: map[string]bool{"constant_tsc": true},
		TSCHz:    1.8e9, TSCSource: "calibrated against CLOCK_MONOTONIC", Load1: 5, NCPU: 8,
		Noise: noiseResult{Samples: 30, Span: 2 * time.Millisecond, CV: 0.017, RobustCV: 0.011, MedianMs: 1.9, Spread: 0.06, Pinned: "not pinned"},
		Layout: harness.Layout{Placements: 6, Verdicts: 12, Positives: 2, BFaster: 2, Floor: 0.021, Where: "A/A align=64+16 (loop offset)",
			Largest: stats.Paired{N: 480, Ratio: 0.021, Lo: 0.017, Hi: 0.025}, LargestWhere: "A/A align=64+16 (loop offset)"},
		LayoutMeasured: true,
	}
}

func TestDoctorGolden(t *testing.T) {
	for name, f := range map[string]doctorFacts{"vm": vmFacts(), "metal": metalFacts(), "laptop": laptopFacts()} {
		var b bytes.Buffer
		writeDoctor(&b, doctorChecks(f))
		golden(t, "doctor_"+name+".golden", b.String())
	}
}

func TestDoctorStatuses(t *testing.T) {
	statuses := func(f doctorFacts) map[string]string {
		m := map[string]string{}
		for _, c := range doctorChecks(f) {
			m[c.Name] = c.Status
			if c.Status == "warn" && c.Advice == "" {
				t.Errorf("check %s warns without advice: %+v", c.Name, c)
			}
		}
		return m
	}
	for name, st := range statuses(metalFacts()) {
		if st != "ok" {
			t.Errorf("tuned bare metal: check %s = %s, want ok", name, st)
		}
	}
	for _, name := range []string{"perf_event_paranoid", "cpufreq governor", "turbo/boost", "SMT", "virtualization", "TSC", "load", "noise floor", "layout floor"} {
		if st := statuses(laptopFacts())[name]; st != "warn" {
			t.Errorf("badly set up laptop: check %s = %s, want warn", name, st)
		}
	}
}

func TestDoctorTSCNotesMissingRDTSCP(t *testing.T) {
	f := metalFacts()
	f.NoRDTSCP = true
	c := tscCheck(f)
	if c.Status != "ok" || !strings.Contains(c.Detail, "no RDTSCP (CPUID): ordered reads use LFENCE; RDTSC") {
		t.Errorf("TSC check without RDTSCP = %+v; want ok with the fallback noted", c)
	}
	if c := tscCheck(metalFacts()); strings.Contains(c.Detail, "RDTSCP") {
		t.Errorf("TSC check with RDTSCP mentions it: %+v", c)
	}
}

func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestGatherDoctorFacts(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"proc/sys/kernel/perf_event_paranoid":                             "3\n",
		"sys/devices/system/cpu/cpu0/cpufreq/scaling_governor":            "powersave\n",
		"sys/devices/system/cpu/cpu1/cpufreq/scaling_governor":            "powersave\n",
		"sys/devices/system/cpu/cpu2/cpufreq/scaling_governor":            "performance\n",
		"sys/devices/system/cpu/cpufreq/boost":                            "1\n",
		"sys/devices/system/cpu/smt/active":                               "1\n",
		"sys/devices/system/cpu/cpu0/topology/thread_siblings_list":       "0,2\n",
		"sys/hypervisor/type":                                             "xen\n",
		"sys/devices/system/clocksource/clocksource0/current_clocksource": "hpet\n",
		"proc/cpuinfo": "processor\t: 0\nflags\t\t: fpu tsc constant_tsc rdtscp\n\nprocessor\t: 1\nflags\t\t: fpu\n",
		"proc/loadavg": "1.25 0.50 0.10 2/300 4242\n",
		"proc/42/stat": "42 (my (odd) proc) R 1 42 42 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 1 0 100 0 0\n",
		"proc/43/stat": "garbage\n",
	})
	f := gatherDoctorFacts(root)
	if f.Paranoid != 3 || f.Governors["powersave"] != 2 || f.Governors["performance"] != 1 || f.Boost != "1" ||
		f.SMTActive != "1" || f.Siblings != "0,2" || f.HVSysfs != "xen" || f.Clock != "hpet" || f.Load1 != 1.25 {
		t.Errorf("gatherDoctorFacts = %+v", f)
	}
	if !f.TSCFlags["constant_tsc"] || f.TSCFlags["nonstop_tsc"] || !f.TSCFlags["tsc"] {
		t.Errorf("TSC flags = %v, want tsc and constant_tsc only", f.TSCFlags)
	}
	ticks := procTicks(root)
	if p, ok := ticks[42]; !ok || p.Comm != "my (odd) proc" || p.Percent != 300 || len(ticks) != 1 {
		t.Errorf("procTicks = %+v, want pid 42 'my (odd) proc' with 300 ticks only", ticks)
	}
	empty := gatherDoctorFacts(t.TempDir())
	if empty.Paranoid != -99 || len(empty.Governors) != 0 || empty.Boost != "" {
		t.Errorf("facts from an empty tree = %+v, want unreadable values", empty)
	}
}

func TestBusyFrom(t *testing.T) {
	before := map[int]busyProc{1: {1, "a", 100}, 2: {2, "b", 100}, 3: {3, "self", 0}, 4: {4, "c", 10}}
	after := map[int]busyProc{1: {1, "a", 110}, 2: {2, "b", 140}, 3: {3, "self", 20}, 4: {4, "c", 10}, 5: {5, "new", 50}}
	got := busyFrom(before, after, 20, 3)
	if len(got) != 2 || got[0].Comm != "b" || got[0].Percent != 200 || got[1].Comm != "a" || got[1].Percent != 50 {
		t.Errorf("busyFrom = %+v, want b 200%%, a 50%% (self, idle and new processes excluded)", got)
	}
}

func TestNoiseStats(t *testing.T) {
	r := noiseStats([]float64{98, 100, 102, 100})
	wantCV := math.Sqrt(8.0/3) / 100
	// deviations from the median 100: 2, 0, 2, 0 -> MAD 1.
	if math.Abs(r.CV-wantCV) > 1e-12 || r.MedianMs != 100 || math.Abs(r.Spread-0.04) > 1e-12 || r.Samples != 4 ||
		math.Abs(r.RobustCV-1.4826/100) > 1e-12 {
		t.Errorf("noiseStats = %+v, want CV %.6f median 100 spread 0.04 robust CV 0.014826", r, wantCV)
	}
	if r := noiseStats([]float64{5}); r.CV != 0 || r.Samples != 1 {
		t.Errorf("noiseStats of one sample = %+v", r)
	}
}

func TestDoctorLive(t *testing.T) {
	out, stderr, code := runCLI(t, "doctor", "--layout-verdicts", "2")
	if code != 0 {
		t.Fatalf("tunelab doctor: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{"PMU", "perf_event_paranoid", "SMT", "virtualization", "TSC", "load", "noise floor", "CV ", "layout floor", "checks need attention"} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, out)
		}
	}
	if _, _, code := runCLI(t, "doctor", "extra"); code != 2 {
		t.Errorf("tunelab doctor extra: exit %d, want 2", code)
	}
}
