package align

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/perfcounters"
)

// disturbEvents are the software counters whose non-zero count marks a
// sample disturbed by the scheduler.
var disturbEvents = []string{"context-switches", "cpu-migrations"}

// A meter counts the host's named front-end events (where it has a PMU)
// and the scheduler's disturbance counters around one sample, on the
// calling (locked, pinned) OS thread.
type meter struct {
	g       *perfcounters.Group
	events  []string // counted front-end events, in order
	disturb map[string]bool
	// note says once why front-end events are not counted ("" if they are).
	note string
}

// openMeter opens the meter's counters; it never fails: what cannot be
// counted is left out and explained in note.
func openMeter() *meter {
	m := &meter{disturb: map[string]bool{}}
	uarch := perfcounters.HostUarch()
	fe := perfcounters.UarchEvents(uarch)
	specs := append([]perfcounters.Spec(nil), fe...)
	if ds, err := perfcounters.ParseSpecs(strings.Join(disturbEvents, ",")); err == nil {
		specs = append(specs, ds...)
	}
	g, err := perfcounters.Open(specs)
	if err != nil {
		m.note = fmt.Sprintf("front-end events not counted: opening counters: %v", err)
		return m
	}
	m.g = g
	isFE := map[string]bool{}
	for _, s := range fe {
		isFE[s.Name] = true
	}
	var reasons []string
	for _, st := range g.Status() {
		switch {
		case st.Available && isFE[st.Name]:
			m.events = append(m.events, st.Name)
		case st.Available:
			m.disturb[st.Name] = true
		case isFE[st.Name] && len(reasons) == 0:
			reasons = append(reasons, st.Name+": "+st.Reason)
		}
	}
	m.note = frontEndNote(uarch, len(fe), len(m.events), reasons)
	return m
}

// frontEndNote explains which front-end events are counted.
func frontEndNote(uarch string, defined, counted int, reasons []string) string {
	switch {
	case defined == 0:
		return fmt.Sprintf("front-end events not counted: no named front-end events for %q", uarch)
	case counted == 0:
		return fmt.Sprintf("front-end events not counted: none of the %d %s events is available (%s)",
			defined, uarch, strings.Join(reasons, "; "))
	case counted < defined:
		return fmt.Sprintf("front-end events: %d of %d %s events counted", counted, defined, uarch)
	}
	return ""
}

// start zeroes and enables the counters.
func (m *meter) start() {
	if m.g != nil {
		m.g.Reset()
		m.g.Start()
	}
}

// stop disables the counters and returns the front-end counts (in the
// order of m.events) and whether the sample was disturbed.
func (m *meter) stop() (counts []float64, disturbed bool) {
	if m.g == nil {
		return nil, false
	}
	m.g.Stop()
	vals, err := m.g.Read()
	if err != nil {
		return nil, false
	}
	byName := map[string]float64{}
	for _, v := range vals {
		if m.disturb[v.Name] && v.Raw > 0 {
			disturbed = true
		}
		byName[v.Name] = v.Count
	}
	for _, e := range m.events {
		counts = append(counts, byName[e])
	}
	return counts, disturbed
}

func (m *meter) close() {
	if m.g != nil {
		m.g.Close()
	}
}
