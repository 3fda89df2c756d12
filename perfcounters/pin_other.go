//go:build !linux

package perfcounters

// PinToCurrentCPU is not supported off Linux; it returns an error and a
// no-op restore function.
func PinToCurrentCPU() (cpu int, restore func(), err error) {
	return -1, func() {}, errNotLinux
}
