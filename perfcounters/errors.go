package perfcounters

import (
	"errors"
	"fmt"
	"syscall"
)

// An EventError says why one event could not be opened.
type EventError struct {
	Event  string
	Errno  syscall.Errno // 0 if the failure was not a system call error
	Reason string        // plain-words classification, see classify
}

func (e *EventError) Error() string {
	return fmt.Sprintf("opening perf event %s: %s", e.Event, e.Reason)
}

// Unwrap returns the errno, or nil if there is none.
func (e *EventError) Unwrap() error {
	if e.Errno == 0 {
		return nil
	}
	return e.Errno
}

// classify turns a perf_event_open failure for s into a reason. paranoid is
// the value of kernel.perf_event_paranoid (-99 if unreadable).
func classify(err error, s Spec, paranoid int) *EventError {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return &EventError{Event: s.Name, Reason: err.Error()}
	}
	return &EventError{Event: s.Name, Errno: errno, Reason: reasonFor(errno, s, paranoid)}
}

// reasonFor explains errno for event s (errno values from
// perf_event_open(2)).
func reasonFor(errno syscall.Errno, s Spec, paranoid int) string {
	hint := ""
	if s.Kind != Software {
		hint = ": no hardware PMU is exposed (e.g. in a VM) or it lacks this event"
	}
	switch errno {
	case syscall.ENOENT:
		return "no PMU / event not supported (ENOENT)" + hint
	case syscall.EOPNOTSUPP:
		return "no PMU / event not supported in this mode (EOPNOTSUPP)" + hint
	case syscall.ENODEV:
		return "no PMU / event not supported: no such PMU device (ENODEV)"
	case syscall.EACCES, syscall.EPERM:
		return fmt.Sprintf("%s forbids it (%s); run as root, grant CAP_PERFMON, or lower kernel.perf_event_paranoid",
			paranoidText(paranoid), errnoName(errno))
	case syscall.EINVAL:
		return "invalid event configuration: the kernel or PMU rejects this event code or attribute (EINVAL)"
	case syscall.EMFILE, syscall.ENFILE:
		return fmt.Sprintf("too many open files (%s); raise the file limit (ulimit -n) or count fewer events", errnoName(errno))
	case syscall.EBUSY:
		return "PMU busy: another user holds the counters exclusively (EBUSY)"
	case syscall.ENOSPC:
		return "no free hardware counter for this event (ENOSPC)"
	case syscall.ENOSYS:
		return "perf_event_open is not available in this kernel or is blocked by a seccomp policy (ENOSYS)"
	case syscall.E2BIG:
		return "kernel does not understand this perf_event_attr size (E2BIG)"
	}
	return fmt.Sprintf("perf_event_open failed: %v (%s)", errno, errnoName(errno))
}

func paranoidText(p int) string {
	if p == -99 {
		return "perf_event_paranoid (unreadable)"
	}
	return fmt.Sprintf("perf_event_paranoid=%d", p)
}

var errnoNames = map[syscall.Errno]string{
	syscall.ENOENT: "ENOENT", syscall.EOPNOTSUPP: "EOPNOTSUPP", syscall.ENODEV: "ENODEV",
	syscall.EACCES: "EACCES", syscall.EPERM: "EPERM", syscall.EINVAL: "EINVAL",
	syscall.EMFILE: "EMFILE", syscall.ENFILE: "ENFILE", syscall.EBUSY: "EBUSY",
	syscall.ENOSPC: "ENOSPC", syscall.ENOSYS: "ENOSYS", syscall.E2BIG: "E2BIG",
}

func errnoName(e syscall.Errno) string {
	if n, ok := errnoNames[e]; ok {
		return n
	}
	return fmt.Sprintf("errno %d", int(e))
}
