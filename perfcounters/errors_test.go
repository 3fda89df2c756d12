package perfcounters

import (
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"
)

func TestClassify(t *testing.T) {
	cycles, _ := lookupFixed("cycles")
	taskClock, _ := lookupFixed("task-clock")
	tests := []struct {
		err      error
		s        Spec
		paranoid int
		want     string
	}{
		{syscall.ENOENT, cycles, 2, "no PMU / event not supported"},
		{syscall.ENOENT, cycles, 2, "(ENOENT)"},
		{fmt.Errorf("wrapped: %w", syscall.EOPNOTSUPP), cycles, 2, "not supported"},
		{syscall.ENODEV, cycles, 2, "no such PMU"},
		{syscall.EACCES, cycles, 3, "perf_event_paranoid=3 forbids it (EACCES)"},
		{syscall.EPERM, taskClock, 4, "perf_event_paranoid=4 forbids it (EPERM)"},
		{syscall.EACCES, cycles, -99, "perf_event_paranoid (unreadable) forbids"},
		{syscall.EINVAL, cycles, 2, "invalid event configuration"},
		{syscall.EMFILE, cycles, 2, "too many open files (EMFILE)"},
		{syscall.EBUSY, cycles, 2, "PMU busy"},
		{syscall.ENOSYS, cycles, 2, "not available in this kernel"},
		{syscall.ENOSPC, cycles, 2, "no free hardware counter"},
		{syscall.EXDEV, cycles, 2, "perf_event_open failed"},
		{errors.New("odd failure"), cycles, 2, "odd failure"},
	}
	for _, tt := range tests {
		ee := classify(tt.err, tt.s, tt.paranoid)
		if !strings.Contains(ee.Reason, tt.want) || ee.Event != tt.s.Name {
			t.Errorf("classify(%v, %s, paranoid %d) = %q for %q, want reason containing %q",
				tt.err, tt.s.Name, tt.paranoid, ee.Reason, ee.Event, tt.want)
		}
		var errno syscall.Errno
		if errors.As(tt.err, &errno) && !errors.Is(ee, errno) {
			t.Errorf("classify(%v): result does not unwrap to %v", tt.err, errno)
		}
	}
}
