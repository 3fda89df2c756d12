//go:build !linux

package perfcounters

import "testing"

// pinOffCPU0 skips: pinning to a chosen CPU is implemented on Linux only.
func pinOffCPU0(t *testing.T) (int, func()) {
	t.Helper()
	t.Skip("pinning to a chosen CPU is implemented on Linux only")
	return 0, nil
}
