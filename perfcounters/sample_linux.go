package perfcounters

import (
	"fmt"
	"os"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/unix"
)

// A Sampler samples the instruction pointer of the calling OS thread
// every Period events (or at about Freq samples per second) through a perf
// ring buffer. Use it from the thread that opened it (LockOSThread).
type Sampler struct {
	spec   Spec
	fd     int
	mem    []byte
	data   []byte // ring buffer data area
	lost   uint64
	closed bool
}

// OpenSampler opens a sampling event for s on the calling OS thread
// (user-mode samples only; sample_type IP|TID). It starts disabled. An
// unavailable event fails with an *EventError giving the reason.
func OpenSampler(s Spec, o SampleOptions) (*Sampler, error) {
	pages := o.Pages
	if pages == 0 {
		pages = 64
	}
	if pages&(pages-1) != 0 {
		return nil, fmt.Errorf("opening sampler %s: %d pages is not a power of two", s.Name, pages)
	}
	fd, err := unix.PerfEventOpen(sampleAttr(s, o), 0, -1, -1, unix.PERF_FLAG_FD_CLOEXEC)
	if err != nil {
		return nil, classify(err, s, paranoid())
	}
	ps := os.Getpagesize()
	mem, err := unix.Mmap(fd, 0, (1+pages)*ps, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_SHARED)
	if err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("mapping perf ring buffer for %s: %w", s.Name, err)
	}
	return &Sampler{spec: s, fd: fd, mem: mem, data: mem[ps:]}, nil
}

func sampleAttr(s Spec, o SampleOptions) *unix.PerfEventAttr {
	a := &unix.PerfEventAttr{Type: s.Type, Config: s.Config, Sample: o.Period,
		Sample_type: unix.PERF_SAMPLE_IP | unix.PERF_SAMPLE_TID}
	a.Size = uint32(unsafe.Sizeof(*a))
	a.Bits = unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv
	if o.Freq > 0 {
		a.Sample = o.Freq
		a.Bits |= unix.PerfBitFreq
	}
	return a
}

func (s *Sampler) page() *unix.PerfEventMmapPage {
	return (*unix.PerfEventMmapPage)(unsafe.Pointer(&s.mem[0]))
}

func (s *Sampler) ioctl(what string, req uint) error {
	if s.closed {
		return fmt.Errorf("sampler %s: %s after Close", s.spec.Name, what)
	}
	if err := unix.IoctlSetInt(s.fd, req, 0); err != nil {
		return fmt.Errorf("sampler %s: %s: %w", s.spec.Name, what, err)
	}
	return nil
}

// Start enables sampling.
func (s *Sampler) Start() error { return s.ioctl("enable", unix.PERF_EVENT_IOC_ENABLE) }

// Stop disables sampling; samples taken so far stay in the buffer.
func (s *Sampler) Stop() error { return s.ioctl("disable", unix.PERF_EVENT_IOC_DISABLE) }

// Drain calls fn for every sample in the ring buffer, frees the buffer
// space and returns the number of samples. Drain often enough that the
// buffer does not fill: samples that do not fit are lost (see Lost).
func (s *Sampler) Drain(fn func(Sample)) (int, error) {
	if s.closed {
		return 0, fmt.Errorf("sampler %s: drain after Close", s.spec.Name)
	}
	pg := s.page()
	head := atomic.LoadUint64(&pg.Data_head)
	tail := pg.Data_tail
	size := uint64(len(s.data))
	buf := make([]byte, head-tail)
	k := copy(buf, s.data[tail%size:]) // unwrap the ring
	copy(buf[k:], s.data)
	n := 0
	lost, err := parseRecords(buf, func(x Sample) { n++; fn(x) })
	s.lost += lost
	atomic.StoreUint64(&pg.Data_tail, head)
	return n, err
}

// Lost returns how many samples the kernel dropped because the buffer was
// full.
func (s *Sampler) Lost() uint64 { return s.lost }

// Close releases the event and its buffer. It is safe to call twice.
func (s *Sampler) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	err := unix.Munmap(s.mem)
	if e := unix.Close(s.fd); err == nil {
		err = e
	}
	if err != nil {
		return fmt.Errorf("closing sampler %s: %w", s.spec.Name, err)
	}
	return nil
}
