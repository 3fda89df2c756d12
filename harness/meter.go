package harness

import (
	"fmt"
	"math"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/tunelab/tunelab/perfcounters"
)

// disturbEvents are the software counters that reveal a sample disturbed
// by the scheduler: any context switch or migration.
var disturbEvents = []string{"context-switches", "cpu-migrations"}

// offCPUSlack is the share of a sample's wall time the thread may spend
// off the CPU (interrupts, a hypervisor's steal time) before the sample
// counts as disturbed. Time on the CPU is the thread's CPU clock
// (CLOCK_THREAD_CPUTIME_ID).
const offCPUSlack = 0.01

// perfMeter counts the requested events with perfcounters and detects
// disturbance with the context-switch and migration software counters,
// falling back to getrusage(RUSAGE_THREAD) switch counts when those are
// unavailable. It also compares the CPU number RDTSCP reports before and
// after, and the thread's CPU time with the wall time.
type perfMeter struct {
	g        *perfcounters.Group
	user     []string // requested events that are available, in order
	disturb  []string // available disturbance counters
	csw      int64
	cpu      uint32
	cpuTime  int64 // thread CPU time at start, ns; -1 if unreadable
	rusageOK bool
}

// newMeter opens a meter for the comma-separated event list on the calling
// thread and reports each requested event's status.
func newMeter(events string) (meter, []EventStatus, error) {
	var specs []perfcounters.Spec
	if strings.TrimSpace(events) != "" {
		var err error
		if specs, err = perfcounters.ParseSpecs(events); err != nil {
			return nil, nil, fmt.Errorf("parsing --events: %w", err)
		}
	}
	requested := map[string]bool{}
	for _, s := range specs {
		requested[s.Name] = true
	}
	extra, err := perfcounters.ParseSpecs(strings.Join(disturbEvents, ","))
	if err != nil {
		return nil, nil, err
	}
	for _, s := range extra {
		if !requested[s.Name] {
			specs = append(specs, s)
		}
	}
	g, err := perfcounters.Open(specs)
	if err != nil {
		return nil, nil, fmt.Errorf("opening counters: %w", err)
	}
	m := &perfMeter{g: g}
	var status []EventStatus
	for _, st := range g.Status() {
		if requested[st.Name] {
			status = append(status, EventStatus{Name: st.Name, Available: st.Available, Reason: st.Reason})
			if st.Available {
				m.user = append(m.user, st.Name)
			}
		}
		if st.Available && isDisturbEvent(st.Name) {
			m.disturb = append(m.disturb, st.Name)
		}
	}
	return m, status, nil
}

func isDisturbEvent(name string) bool {
	for _, d := range disturbEvents {
		if d == name {
			return true
		}
	}
	return false
}

func (m *perfMeter) start() {
	m.csw, m.rusageOK = threadSwitches()
	m.cpuTime = threadCPUTime()
	_, m.cpu = perfcounters.RDTSCP()
	m.g.Reset()
	m.g.Start()
}

// stop returns what the meter saw over the sample: the requested events'
// counts (NaN where an event never got a counter), whether the sample was
// disturbed and how.
func (m *perfMeter) stop(wallNs int64) reading {
	m.g.Stop()
	_, cpu := perfcounters.RDTSCP()
	rd := reading{onCPUNs: -1, migrated: cpu != m.cpu}
	if t := threadCPUTime(); t >= 0 && m.cpuTime >= 0 {
		rd.onCPUNs = t - m.cpuTime
		rd.disturbed = float64(rd.onCPUNs) < (1-offCPUSlack)*float64(wallNs)
	}
	vals, err := m.g.Read()
	if err != nil {
		rd.disturbed, rd.migrated = true, true
		return rd
	}
	byName := map[string]float64{}
	for _, v := range vals {
		byName[v.Name] = v.Count
	}
	for _, d := range m.disturb {
		rd.disturbed = rd.disturbed || byName[d] > 0
	}
	rd.migrated = rd.migrated || byName["cpu-migrations"] > 0
	if len(m.disturb) < len(disturbEvents) {
		csw, ok := threadSwitches()
		rd.disturbed = rd.disturbed || (ok && m.rusageOK && csw != m.csw)
	}
	rd.disturbed = rd.disturbed || rd.migrated
	rd.counts = make([]float64, len(m.user))
	for i, name := range m.user {
		c, ok := byName[name]
		if !ok {
			c = math.NaN()
		}
		rd.counts[i] = c
	}
	return rd
}

func (m *perfMeter) close() { m.g.Close() }

// threadSwitches returns the calling thread's voluntary plus involuntary
// context switches.
func threadSwitches() (int64, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return ru.Nvcsw + ru.Nivcsw, true
}

// threadCPUTime returns the calling thread's CPU time in ns, or -1.
func threadCPUTime() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return -1
	}
	return ts.Nano()
}

func readTSC() uint64 { return perfcounters.RDTSC() }
