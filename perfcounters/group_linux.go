package perfcounters

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

const readFormat = unix.PERF_FORMAT_GROUP | unix.PERF_FORMAT_TOTAL_TIME_ENABLED |
	unix.PERF_FORMAT_TOTAL_TIME_RUNNING | unix.PERF_FORMAT_ID

// paranoid returns kernel.perf_event_paranoid, or -99 if unreadable.
func paranoid() int {
	p, err := Paranoid()
	if err != nil {
		return -99
	}
	return p
}

// Paranoid returns the value of kernel.perf_event_paranoid.
func Paranoid() (int, error) {
	b, err := os.ReadFile("/proc/sys/kernel/perf_event_paranoid")
	if err != nil {
		return 0, fmt.Errorf("reading perf_event_paranoid: %w", err)
	}
	return strconv.Atoi(strings.TrimSpace(string(b)))
}

// attrFor returns the counting attributes of s. Hardware, cache and raw
// events count user mode only (the kernels under test run there, and it is
// what perf_event_paranoid=2 allows); software events count everything
// unless userOnly.
func attrFor(s Spec, leader, userOnly bool) *unix.PerfEventAttr {
	a := &unix.PerfEventAttr{Type: s.Type, Config: s.Config, Read_format: readFormat}
	a.Size = uint32(unsafe.Sizeof(*a))
	a.Bits = unix.PerfBitExcludeHv
	if s.Kind != Software || userOnly {
		a.Bits |= unix.PerfBitExcludeKernel
	}
	if leader {
		a.Bits |= unix.PerfBitDisabled
	}
	return a
}

// perfOpen opens s on the calling thread, in group groupFd (-1: new group).
// It retries software events user-only when kernel counting is forbidden,
// except those only the kernel raises (kernelOnly), which stay
// unavailable: user-only, they would count 0 as if nothing happened.
func perfOpen(s Spec, groupFd int) (fd int, userOnly bool, err error) {
	leader := groupFd < 0
	fd, err = unix.PerfEventOpen(attrFor(s, leader, false), 0, -1, groupFd, unix.PERF_FLAG_FD_CLOEXEC)
	if s.Kind == Software && !kernelOnly(s) && (errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM)) {
		userOnly = true
		fd, err = unix.PerfEventOpen(attrFor(s, leader, true), 0, -1, groupFd, unix.PERF_FLAG_FD_CLOEXEC)
	}
	return fd, userOnly, err
}

func eventID(fd int) (uint64, error) {
	var id uint64
	_, _, e := unix.Syscall(unix.SYS_IOCTL, uintptr(fd), unix.PERF_EVENT_IOC_ID, uintptr(unsafe.Pointer(&id)))
	if e != 0 {
		return 0, fmt.Errorf("perf event id: %w", e)
	}
	return id, nil
}

// Open opens counters for specs on the calling OS thread; the caller must
// have called runtime.LockOSThread and must use the Group from that
// thread. Counters start disabled (call Start). An event that cannot be
// opened does not fail Open: it is recorded in Status with the classified
// reason, and Read omits it. Events join one perf group where the PMU
// allows; one that does not fit gets its own group (see Group).
func Open(specs []Spec) (*Group, error) {
	g := &Group{specs: specs, status: make([]EventStatus, len(specs))}
	p := paranoid()
	for i, s := range specs {
		g.status[i] = EventStatus{Name: s.Name, Kind: s.Kind}
		note, err := g.add(i, s)
		if err != nil {
			ee := classify(err, s, p)
			g.status[i].Reason, g.status[i].Err = ee.Reason, ee
			continue
		}
		g.status[i].Available, g.status[i].Reason = true, note
	}
	return g, nil
}

// add opens spec i into the main group, or as its own group when the main
// group rejects it (EINVAL: it would not fit the PMU's counters together).
func (g *Group) add(i int, s Spec) (note string, err error) {
	if len(g.groups) > 0 {
		main := g.groups[0]
		fd, user, err := perfOpen(s, main.fds[0])
		if err == nil {
			return userNote(user, ""), g.attach(main, fd, i)
		}
		if !errors.Is(err, unix.EINVAL) {
			return "", err
		}
		note = "own group (did not fit the main group)"
	}
	fd, user, err := perfOpen(s, -1)
	if err != nil {
		return "", err
	}
	cg := &counterGroup{}
	if err := g.attach(cg, fd, i); err != nil {
		return "", err
	}
	g.groups = append(g.groups, cg)
	return userNote(user, note), nil
}

func userNote(user bool, note string) string {
	if !user {
		return note
	}
	if note != "" {
		return note + "; user mode only"
	}
	return "user mode only"
}

func (g *Group) attach(cg *counterGroup, fd, i int) error {
	id, err := eventID(fd)
	if err != nil {
		unix.Close(fd)
		return err
	}
	cg.fds, cg.ids, cg.spec = append(cg.fds, fd), append(cg.ids, id), append(cg.spec, i)
	return nil
}

func (g *Group) ioctlAll(what string, req uint) error {
	if g.closed {
		return fmt.Errorf("perf group: %s after Close", what)
	}
	for _, cg := range g.groups {
		if err := unix.IoctlSetInt(cg.fds[0], req, unix.PERF_IOC_FLAG_GROUP); err != nil {
			return fmt.Errorf("perf group %s (%s): %w", what, g.specs[cg.spec[0]].Name, err)
		}
	}
	return nil
}

// Start enables every counter.
func (g *Group) Start() error { return g.ioctlAll("enable", unix.PERF_EVENT_IOC_ENABLE) }

// Stop disables every counter; counts and times stop accumulating.
func (g *Group) Stop() error { return g.ioctlAll("disable", unix.PERF_EVENT_IOC_DISABLE) }

// Reset zeroes every count and restarts the enabled/running times that Read
// reports (the kernel does not reset those; Reset records a baseline).
func (g *Group) Reset() error {
	if err := g.ioctlAll("reset", unix.PERF_EVENT_IOC_RESET); err != nil {
		return err
	}
	for _, cg := range g.groups {
		r, err := readGroup(cg)
		if err != nil {
			return err
		}
		cg.baseEn, cg.baseRun = r.enabled, r.running
	}
	return nil
}

func readGroup(cg *counterGroup) (groupRead, error) {
	buf := make([]byte, 8*(3+2*len(cg.fds)))
	n, err := unix.Read(cg.fds[0], buf)
	if err != nil {
		return groupRead{}, fmt.Errorf("reading perf group: %w", err)
	}
	return parseGroupRead(buf[:n])
}

// Read returns one Value per available event, in the order of the specs
// given to Open, covering the time since Open or the last Reset.
// Unavailable events are omitted (see Status), never reported as zero.
func (g *Group) Read() ([]Value, error) {
	if g.closed {
		return nil, fmt.Errorf("perf group: read after Close")
	}
	byIdx := map[int]Value{}
	for _, cg := range g.groups {
		r, err := readGroup(cg)
		if err != nil {
			return nil, err
		}
		vs, err := g.values(cg, r)
		if err != nil {
			return nil, err
		}
		for i, v := range vs {
			byIdx[cg.spec[i]] = v
		}
	}
	return g.order(byIdx), nil
}

// Close releases every counter. It is safe to call twice.
func (g *Group) Close() error {
	if g.closed {
		return nil
	}
	g.closed = true
	var first error
	for _, cg := range g.groups {
		for i := len(cg.fds) - 1; i >= 0; i-- {
			if err := unix.Close(cg.fds[i]); err != nil && first == nil {
				first = fmt.Errorf("closing perf event: %w", err)
			}
		}
	}
	return first
}
