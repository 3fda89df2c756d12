package perfcounters

import (
	"errors"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func mustSpecs(t *testing.T, list string) []Spec {
	t.Helper()
	specs, err := ParseSpecs(list)
	if err != nil {
		t.Fatal(err)
	}
	return specs
}

// forbidden reports whether err is perf_event_open refusing the process
// outright: EACCES or EPERM (perf_event_paranoid, no CAP_PERFMON, or a
// container's seccomp profile such as Docker's default) or ENOSYS (no
// perf events in this kernel, or a seccomp policy).
func forbidden(err *EventError) bool {
	return err != nil && (errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.ENOSYS))
}

// skipIfForbidden skips a test that counts or samples when this process
// may not open even the software event task-clock: the host cannot run
// it. Any other failure to open task-clock is left to the test to report.
func skipIfForbidden(t *testing.T) {
	t.Helper()
	g, err := Open(mustSpecs(t, "task-clock"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if st := g.Status()[0]; !st.Available && forbidden(st.Err) {
		t.Skipf("perf_event_open is not permitted to this process, so nothing can be counted here: task-clock: %s", st.Reason)
	}
}

// measure counts specs over f and returns the values by name.
func measure(t *testing.T, g *Group, f func()) map[string]Value {
	t.Helper()
	if err := g.Reset(); err != nil {
		t.Fatal(err)
	}
	if err := g.Start(); err != nil {
		t.Fatal(err)
	}
	f()
	if err := g.Stop(); err != nil {
		t.Fatal(err)
	}
	vs, err := g.Read()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]Value{}
	for _, v := range vs {
		m[v.Name] = v
	}
	return m
}

func TestSoftwareEventsCount(t *testing.T) {
	skipIfForbidden(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := Open(mustSpecs(t, "task-clock,context-switches,cpu-clock,page-faults,cpu-migrations"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// Only the kernel raises context switches and migrations: where this
	// process may count user mode only (perf_event_paranoid=2 without
	// CAP_PERFMON) they must be unavailable with the reason, never
	// counted as 0; every other software event must be counted.
	counted := map[string]bool{}
	for _, st := range g.Status() {
		s, _ := lookupFixed(st.Name)
		switch {
		case st.Available:
			counted[st.Name] = true
		case kernelOnly(s) && forbidden(st.Err):
			t.Logf("%s unavailable, as where only user mode may be counted: %s", st.Name, st.Reason)
		default:
			t.Fatalf("software event %s unavailable: %s", st.Name, st.Reason)
		}
	}
	short := measure(t, g, func() { sink += spin(2000) })
	long := measure(t, g, func() {
		sink += spin(12000)
		time.Sleep(2 * time.Millisecond) // forces at least one context switch
		buf := make([]byte, 1<<20)
		for i := 0; i < len(buf); i += 4096 {
			buf[i] = 1 // fresh pages fault in
		}
	})
	for _, name := range []string{"task-clock", "context-switches", "cpu-clock", "page-faults", "cpu-migrations"} {
		v, ok := long[name]
		switch {
		case !counted[name] && ok:
			t.Errorf("%s: unavailable, yet Read gave %+v", name, v)
		case counted[name] && (!ok || !v.Counted || v.Multiplexed):
			t.Errorf("%s: got %+v, want a counted, unmultiplexed value", name, v)
		}
	}
	ts, tl := short["task-clock"].Count, long["task-clock"].Count
	if ts <= 0 || tl < 3*ts {
		t.Errorf("task-clock: %.0f ns over 2000 work units, %.0f ns over 12000: want the second about 6x the first", ts, tl)
	}
	if cs := long["context-switches"].Count; counted["context-switches"] && cs < 1 {
		t.Errorf("context-switches = %v over a sleep, want >= 1", cs)
	}
	// Per-thread events are enabled while the thread runs: Enabled covers
	// the measured work since Reset, not the time before it.
	if v := long["task-clock"]; v.Enabled < time.Duration(v.Count*0.9) || v.Enabled > time.Duration(3*v.Count)+5*time.Millisecond {
		t.Errorf("task-clock enabled %v for a count of %.0f ns after Reset, want about the count", v.Enabled, v.Count)
	}
}

func TestHardwareEventsDegrade(t *testing.T) {
	skipIfForbidden(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := Open(mustSpecs(t, "cycles,task-clock,instructions,L1-icache-load-misses,r00c0"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	st := g.Status()
	if st[0].Available {
		t.Skip("host has a hardware PMU: cycles is available")
	}
	for _, s := range st {
		if s.Name == "task-clock" {
			if !s.Available {
				t.Errorf("task-clock unavailable next to missing hardware events: %s", s.Reason)
			}
			continue
		}
		if s.Available || !strings.Contains(s.Reason, "ENOENT") || !errors.Is(s.Err, syscall.ENOENT) {
			t.Errorf("%s: available=%v reason %q, want unavailable with ENOENT", s.Name, s.Available, s.Reason)
		}
	}
	vals := measure(t, g, func() { sink += spin(300) })
	if len(vals) != 1 || !vals["task-clock"].Counted {
		t.Errorf("Read returned %v, want only task-clock (unavailable events must be omitted, not zero)", vals)
	}
}

func TestGroupClose(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := Open(mustSpecs(t, "task-clock"))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := g.Read(); err == nil {
		t.Error("Read after Close succeeded")
	}
	if err := g.Start(); err == nil {
		t.Error("Start after Close succeeded")
	}
}

func TestDefaultEventsHaveStatus(t *testing.T) {
	// Every default event must end up either counted or with a reason.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := Open(DefaultSpecs(HostUarch()))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, s := range g.Status() {
		if !s.Available && s.Reason == "" {
			t.Errorf("%s unavailable without a reason", s.Name)
		}
	}
}
