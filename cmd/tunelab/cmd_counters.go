package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tunelab/tunelab/perfcounters"
)

func init() {
	register(&command{
		name:    "counters",
		summary: "list performance counters: available or why not, with a measured example value",
		run:     runCounters,
	})
}

func runCounters(e *env, args []string) error {
	fs := newFlags(e, "counters", "counters [--json] [--events LIST]")
	asJSON := fs.Bool("json", false, "print JSON")
	events := fs.String("events", "", "comma-separated events (perf names, rNNNN, event=0x..,umask=0x.., named uarch events); default: all generic events and this CPU's front-end events")
	if err := parseNoArgs(fs, args); err != nil {
		return err
	}
	uarch := perfcounters.HostUarch()
	specs := perfcounters.DefaultSpecs(uarch)
	if *events != "" {
		var err error
		if specs, err = perfcounters.ParseSpecs(*events); err != nil {
			return usagef("counters: %v", err)
		}
	}
	rep, err := measureCounters(specs, uarch)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.writeText(e.stdout)
	return nil
}

// A countersReport is the output of `tunelab counters`.
type countersReport struct {
	Uarch     string       `json:"uarch"`
	Paranoid  string       `json:"perf_event_paranoid"`
	TSCHz     float64      `json:"tsc_hz"`
	TSCSource string       `json:"tsc_source"`
	Work      string       `json:"work"`
	WorkTSC   uint64       `json:"work_tsc_ref_cycles"`
	Events    []counterRow `json:"events"`
}

// A counterRow is one event: available with a value, or unavailable with
// the reason. Value is nil when there is no count (never 0 for "unknown").
type counterRow struct {
	Name        string   `json:"name"`
	Kind        string   `json:"kind"`
	Available   bool     `json:"available"`
	Reason      string   `json:"reason,omitempty"`
	Value       *float64 `json:"value,omitempty"`
	Unit        string   `json:"unit"`
	Multiplexed bool     `json:"multiplexed,omitempty"`
	// OnCounter is the fraction of the enabled time the event was on a
	// counter (running/enabled) for multiplexed events.
	OnCounter float64 `json:"on_counter,omitempty"`
	Doc       string  `json:"doc"`
}

// measureCounters opens specs on a locked thread, runs the work loop once
// counted and returns the report.
func measureCounters(specs []perfcounters.Spec, uarch string) (*countersReport, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	g, err := perfcounters.Open(specs)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	hz, src := perfcounters.TSCHz()
	rep := &countersReport{Uarch: uarch, Paranoid: paranoidString(), TSCHz: hz, TSCSource: src, Work: workLoopDoc}
	workLoop(workIters / 10) // warm up: page in code, settle the clock
	if err := g.Reset(); err != nil {
		return nil, err
	}
	if err := g.Start(); err != nil {
		return nil, err
	}
	t0 := perfcounters.RDTSC()
	sinkCounters += workLoop(workIters)
	rep.WorkTSC = perfcounters.RDTSC() - t0
	if err := g.Stop(); err != nil {
		return nil, err
	}
	vals, err := g.Read()
	if err != nil {
		return nil, err
	}
	rep.Events = counterRows(specs, g.Status(), vals)
	return rep, nil
}

var sinkCounters uint64

func paranoidString() string {
	p, err := perfcounters.Paranoid()
	if err != nil {
		return "unreadable"
	}
	return strconv.Itoa(p)
}

// counterRows joins specs, their status and the values read.
func counterRows(specs []perfcounters.Spec, st []perfcounters.EventStatus, vals []perfcounters.Value) []counterRow {
	byName := map[string]perfcounters.Value{}
	for _, v := range vals {
		byName[v.Name] = v
	}
	rows := make([]counterRow, len(specs))
	for i, s := range specs {
		r := counterRow{Name: s.Name, Kind: s.Kind.String(), Available: st[i].Available, Reason: st[i].Reason, Unit: s.Unit, Doc: s.Doc}
		if v, ok := byName[s.Name]; ok && st[i].Available {
			if v.Counted {
				c := v.Count
				r.Value = &c
			} else {
				r.Reason = joinNote(r.Reason, "enabled but never scheduled on a counter: no value")
			}
			r.Multiplexed = v.Multiplexed
			if v.Multiplexed && v.Enabled > 0 {
				r.OnCounter = float64(v.Running) / float64(v.Enabled)
			}
		}
		rows[i] = r
	}
	return rows
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// writeText prints the report as a table.
func (r *countersReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "Performance counters on this thread (uarch %s, perf_event_paranoid %s)\n", r.Uarch, r.Paranoid)
	fmt.Fprintf(w, "TSC: %.3f GHz reference cycles (not core cycles), from %s\n", r.TSCHz/1e9, r.TSCSource)
	fmt.Fprintf(w, "Example values over one run of the work loop (%s): %s TSC reference cycles\n\n",
		r.Work, groupDigits(float64(r.WorkTSC)))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "EVENT\tKIND\tSTATUS\tVALUE\tNOTE")
	avail := 0
	for _, e := range r.Events {
		status, value := "unavailable", "-"
		if e.Available {
			status = "available"
			avail++
		}
		if e.Value != nil {
			value = formatCount(*e.Value, e.Unit, e.OnCounter)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", e.Name, e.Kind, status, value, e.Reason)
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%d of %d events available; unavailable events are never reported as 0.\n", avail, len(r.Events))
}

// formatCount formats a count with digit grouping and its unit, noting
// multiplex scaling when the event was on a counter only part of the time.
func formatCount(v float64, unit string, onCounter float64) string {
	s := groupDigits(v)
	if unit == "nanoseconds" {
		s += " ns"
	}
	if onCounter > 0 {
		s += fmt.Sprintf(" (scaled, on counter %.0f%%)", 100*onCounter)
	}
	return s
}

// groupDigits formats v rounded to an integer with thousands separators.
func groupDigits(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return fmt.Sprint(v)
	}
	s := strconv.FormatFloat(math.Round(math.Abs(v)), 'f', 0, 64)
	var b strings.Builder
	if v < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// The work loop: a fixed amount of integer work plus a fresh buffer walk,
// so that instructions, branches, cache and page-fault events all move.
const (
	workIters   = 2_000_000
	workBuf     = 4 << 20
	workLoopDoc = "2,000,000 xorshift steps over a fresh 4 MiB buffer"
)

// workLoop runs n steps of a xorshift walk over a freshly allocated buffer
// and returns a value that depends on every step.
func workLoop(n int) uint64 {
	buf := make([]uint64, workBuf/8)
	x := uint64(88172645463325252)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		j := (x >> 11) % uint64(len(buf))
		buf[j] += x
		if buf[i%len(buf)]&1 == 0 {
			x++
		}
	}
	return x + buf[0]
}
