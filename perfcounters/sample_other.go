//go:build !linux

package perfcounters

// A Sampler samples instruction pointers; off Linux none can be opened.
type Sampler struct{}

// OpenSampler fails off Linux: perf_event_open is Linux-only.
func OpenSampler(s Spec, o SampleOptions) (*Sampler, error) {
	return nil, &EventError{Event: s.Name, Reason: "no PMU access: perf_event_open is Linux-only"}
}

// Start does nothing.
func (s *Sampler) Start() error { return errNotLinux }

// Stop does nothing.
func (s *Sampler) Stop() error { return errNotLinux }

// Drain returns no samples.
func (s *Sampler) Drain(fn func(Sample)) (int, error) { return 0, errNotLinux }

// Lost returns 0.
func (s *Sampler) Lost() uint64 { return 0 }

// Close does nothing.
func (s *Sampler) Close() error { return nil }
