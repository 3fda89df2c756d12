package perfcounters

import (
	"encoding/binary"
	"fmt"
	"math"
	"time"
)

// EventStatus says whether one event of a Group is counted, and if not why.
type EventStatus struct {
	Name      string
	Kind      Kind
	Available bool
	// Reason explains an unavailable event ("no PMU / event not supported:
	// ... (ENOENT)"); for available events it may carry a note such as
	// "own group (did not fit the main group)" or "user mode only".
	Reason string
	// Err is the classified open error of an unavailable event.
	Err *EventError `json:"-"`
}

// A Value is one event's count over the measured interval.
type Value struct {
	Name string
	// Count is Raw scaled for multiplexing (Raw*Enabled/Running). It is NaN
	// when the event was enabled but never scheduled (Counted false).
	Count float64
	Raw   uint64
	// Enabled and Running are the time the event's counter group was
	// enabled and actually on a counter since the last Reset.
	Enabled, Running time.Duration
	// Multiplexed reports Running < Enabled: the count is an estimate.
	Multiplexed bool
	// Counted is false when the event never got a counter (Running 0).
	Counted bool
}

// A Group is a set of counters on the OS thread that opened it. Events
// that can share a perf group do (one leader, read atomically with
// PERF_FORMAT_GROUP); an event that does not fit the main group is opened
// as the leader of its own group so it still gets its own enabled/running
// times and multiplex scaling (with PERF_FORMAT_GROUP the kernel reports
// times per group, and every member of a group is scheduled together, so
// the group's times are exactly each member's times).
type Group struct {
	specs  []Spec
	status []EventStatus
	groups []*counterGroup
	closed bool
}

// A counterGroup is one perf group: a leader and members.
type counterGroup struct {
	fds     []int    // fds[0] is the leader
	ids     []uint64 // kernel event ids, parallel to fds
	spec    []int    // index into Group.specs, parallel to fds
	baseEn  uint64   // time_enabled at the last Reset
	baseRun uint64   // time_running at the last Reset
}

// Status returns one entry per spec passed to Open, in order.
func (g *Group) Status() []EventStatus {
	return append([]EventStatus(nil), g.status...)
}

// Available returns the specs that are counted.
func (g *Group) Available() []Spec {
	var out []Spec
	for i, st := range g.status {
		if st.Available {
			out = append(out, g.specs[i])
		}
	}
	return out
}

// groupRead is a parsed read(2) of a group leader with
// PERF_FORMAT_GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID:
// { u64 nr; u64 time_enabled; u64 time_running; { u64 value; u64 id; } cntr[nr]; }
type groupRead struct {
	enabled, running uint64
	values           map[uint64]uint64 // id -> value
}

// parseGroupRead decodes buf (native byte order).
func parseGroupRead(buf []byte) (groupRead, error) {
	if len(buf) < 24 {
		return groupRead{}, fmt.Errorf("reading perf group: short read of %d bytes", len(buf))
	}
	u := func(i int) uint64 { return binary.NativeEndian.Uint64(buf[8*i:]) }
	nr := u(0)
	if nr > 1<<16 || uint64(len(buf)) < 8*(3+2*nr) {
		return groupRead{}, fmt.Errorf("reading perf group: %d events do not fit %d bytes", nr, len(buf))
	}
	r := groupRead{enabled: u(1), running: u(2), values: make(map[uint64]uint64, nr)}
	for i := 0; i < int(nr); i++ {
		r.values[u(4+2*i)] = u(3 + 2*i)
	}
	return r, nil
}

// scale returns the multiplex-scaled value of raw for a counter group
// enabled for enabled ns and running for running ns.
func scale(name string, raw, enabled, running uint64) Value {
	v := Value{Name: name, Raw: raw, Enabled: time.Duration(enabled), Running: time.Duration(running)}
	switch {
	case running == 0:
		v.Count = math.NaN()
		v.Multiplexed = enabled > 0
	case running >= enabled:
		v.Count, v.Counted = float64(raw), true
	default:
		v.Count = float64(raw) * float64(enabled) / float64(running)
		v.Counted, v.Multiplexed = true, true
	}
	return v
}

// values turns one read of counter group cg into Values, in cg order.
func (g *Group) values(cg *counterGroup, r groupRead) ([]Value, error) {
	en, run := r.enabled-min(r.enabled, cg.baseEn), r.running-min(r.running, cg.baseRun)
	out := make([]Value, 0, len(cg.fds))
	for i, id := range cg.ids {
		raw, ok := r.values[id]
		name := g.specs[cg.spec[i]].Name
		if !ok {
			return nil, fmt.Errorf("reading perf event %s: id %d missing from group read", name, id)
		}
		out = append(out, scale(name, raw, en, run))
	}
	return out, nil
}

// order sorts values (keyed by spec index) into spec order.
func (g *Group) order(byIdx map[int]Value) []Value {
	out := make([]Value, 0, len(byIdx))
	for i := range g.specs {
		if v, ok := byIdx[i]; ok {
			out = append(out, v)
		}
	}
	return out
}
