package perfcounters

import (
	"encoding/binary"
	"fmt"
)

// SampleOptions configures a Sampler. Exactly one of Period and Freq is
// used: Freq when non-zero, else Period.
type SampleOptions struct {
	// Period is the number of events between samples (nanoseconds for
	// cpu-clock and task-clock).
	Period uint64
	// Freq asks the kernel to adjust the period for about Freq samples per
	// second.
	Freq uint64
	// Pages is the ring buffer's size in pages, a power of two; 0 means 64.
	Pages int
}

// A Sample is one interrupt of a sampling event: where the thread was.
type Sample struct {
	IP       uint64 // instruction pointer
	PID, TID uint32
	User     bool // the IP is in user mode
}

// perf record types and misc bits (include/uapi/linux/perf_event.h).
const (
	recordLost        = 2
	recordSample      = 9
	miscCPUModeMask   = 7
	miscUser          = 2
	recordHeaderBytes = 8
)

// parseRecords decodes perf ring-buffer records in buf (already unwrapped,
// a whole number of records) for sample_type IP|TID. It calls fn for each
// sample and returns the number of lost samples reported.
func parseRecords(buf []byte, fn func(Sample)) (lost uint64, err error) {
	ne := binary.NativeEndian
	for len(buf) > 0 {
		if len(buf) < recordHeaderBytes {
			return lost, fmt.Errorf("perf ring buffer: truncated record header (%d bytes)", len(buf))
		}
		typ, misc, size := ne.Uint32(buf), ne.Uint16(buf[4:]), int(ne.Uint16(buf[6:]))
		if size < recordHeaderBytes || size > len(buf) {
			return lost, fmt.Errorf("perf ring buffer: record size %d out of range (%d bytes left)", size, len(buf))
		}
		body := buf[recordHeaderBytes:size]
		switch {
		case typ == recordSample && len(body) >= 16:
			fn(Sample{IP: ne.Uint64(body), PID: ne.Uint32(body[8:]), TID: ne.Uint32(body[12:]),
				User: misc&miscCPUModeMask == miscUser})
		case typ == recordLost && len(body) >= 16:
			lost += ne.Uint64(body[8:])
		}
		buf = buf[size:]
	}
	return lost, nil
}
