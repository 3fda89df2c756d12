package perfcounters

import (
	"testing"

	"golang.org/x/sys/unix"
)

// pinOffCPU0 pins the calling thread (locked by the caller) to the
// highest CPU other than 0 that this process may run on, and returns it
// and a function that restores the affinity. It skips where the affinity
// mask holds no CPU but 0.
func pinOffCPU0(t *testing.T) (int, func()) {
	t.Helper()
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		t.Skipf("reading the affinity mask: %v", err)
	}
	for c := len(old)*64 - 1; c > 0; c-- {
		if !old.IsSet(c) {
			continue
		}
		var set unix.CPUSet
		set.Set(c)
		if err := unix.SchedSetaffinity(0, &set); err != nil {
			t.Skipf("pinning to CPU %d: %v", c, err)
		}
		return c, func() { unix.SchedSetaffinity(0, &old) }
	}
	t.Skip("this process may run on CPU 0 only, whose TSC_AUX is 0 on both paths")
	return 0, nil
}
