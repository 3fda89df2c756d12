//go:build !linux

package perfcounters

import (
	"errors"
	"fmt"
)

var errNotLinux = errors.New("perf_event_open is Linux-only")

// Paranoid returns kernel.perf_event_paranoid; it fails off Linux.
func Paranoid() (int, error) { return 0, errNotLinux }

// Open records every event as unavailable: perf_event_open is Linux-only.
func Open(specs []Spec) (*Group, error) {
	g := &Group{specs: specs}
	for _, s := range specs {
		ee := &EventError{Event: s.Name, Reason: "no PMU access: perf_event_open is Linux-only"}
		g.status = append(g.status, EventStatus{Name: s.Name, Kind: s.Kind, Reason: ee.Reason, Err: ee})
	}
	return g, nil
}

func (g *Group) check(what string) error {
	if g.closed {
		return fmt.Errorf("perf group: %s after Close", what)
	}
	return nil
}

// Start enables every counter (none off Linux).
func (g *Group) Start() error { return g.check("enable") }

// Stop disables every counter (none off Linux).
func (g *Group) Stop() error { return g.check("disable") }

// Reset zeroes every counter (none off Linux).
func (g *Group) Reset() error { return g.check("reset") }

// Read returns no values: every event is unavailable off Linux.
func (g *Group) Read() ([]Value, error) { return nil, g.check("read") }

// Close marks the group closed.
func (g *Group) Close() error { g.closed = true; return nil }
