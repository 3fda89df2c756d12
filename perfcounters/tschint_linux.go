package perfcounters

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// kernelTSCHz returns the kernel's TSC frequency: sysfs tsc_freq_khz where
// the kernel exports it, else the cycles-to-nanoseconds factor the kernel
// publishes in a perf event's user page (cap_user_time: ns = cyc*mult>>shift,
// derived from tsc_khz).
func kernelTSCHz() (float64, string, bool) {
	if b, err := os.ReadFile("/sys/devices/system/cpu/cpu0/tsc_freq_khz"); err == nil {
		if khz, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && khz > 0 {
			return khz * 1e3, "kernel tsc_freq_khz (sysfs)", true
		}
	}
	mult, shift, ok := perfTimeConv()
	if !ok {
		return 0, "", false
	}
	return 1e9 * float64(uint64(1)<<shift) / float64(mult), "kernel tsc_khz (perf user page time_mult/time_shift)", true
}

// perfTimeConv opens a task-clock event, maps its user page and returns
// time_mult and time_shift if the kernel sets cap_user_time.
func perfTimeConv() (mult uint32, shift uint16, ok bool) {
	s, _ := lookupFixed("task-clock")
	fd, _, err := perfOpen(s, -1)
	if err != nil {
		return 0, 0, false
	}
	defer unix.Close(fd)
	mem, err := unix.Mmap(fd, 0, os.Getpagesize(), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return 0, 0, false
	}
	defer unix.Munmap(mem)
	pg := (*unix.PerfEventMmapPage)(unsafe.Pointer(&mem[0]))
	const capUserTime = 1 << 3
	if pg.Capabilities&capUserTime == 0 || pg.Time_mult == 0 {
		return 0, 0, false
	}
	return pg.Time_mult, pg.Time_shift, true
}

// cpuinfoTSCHz reads /proc/cpuinfo: on x86 Linux with a TSC delay loop,
// bogomips is 2 x tsc_khz / 1000 (rounded to 10 kHz).
func cpuinfoTSCHz() (float64, string, bool) {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return 0, "", false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "bogomips" {
			b, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err == nil && b > 0 {
				return b / 2 * 1e6, "/proc/cpuinfo bogomips/2", true
			}
		}
	}
	return 0, "", false
}
