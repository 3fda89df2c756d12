package perfcounters

import (
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// PinToCurrentCPU pins the calling OS thread (the caller has called
// runtime.LockOSThread) to the CPU it is running on. It returns that CPU
// and a function that restores the previous affinity.
func PinToCurrentCPU() (cpu int, restore func(), err error) {
	var old unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return -1, func() {}, fmt.Errorf("pinning thread: reading affinity: %w", err)
	}
	var c uint32
	if _, _, e := unix.RawSyscall(unix.SYS_GETCPU, uintptr(unsafe.Pointer(&c)), 0, 0); e != 0 {
		return -1, func() {}, fmt.Errorf("pinning thread: getcpu: %w", e)
	}
	var set unix.CPUSet
	set.Set(int(c))
	if err := unix.SchedSetaffinity(0, &set); err != nil {
		return -1, func() {}, fmt.Errorf("pinning thread to CPU %d: %w", c, err)
	}
	return int(c), func() { unix.SchedSetaffinity(0, &old) }, nil
}
