package harness

import (
	"fmt"
	"os"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/tunelab/tunelab/kernels/variant"
)

// The test binary doubles as the measurement worker: the harness re-executes
// it with WorkerEnv set. Registration of the test kernels comes first so the
// worker knows them.
func init() {
	registerTestKernels()
	if os.Getenv(WorkerEnv) == "1" {
		if err := ServeWorker(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "worker:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

const (
	testKernel  = "harnesstest"
	crashKernel = "harnesstest.crash"
)

func registerTestKernels() {
	variant.RegisterKernel(variant.Kernel{Name: testKernel, Family: "harnesstest", Bench: "HarnessTest",
		Sizes: []int{16, 32}, Unit: "B", UnitsPerOp: func(n int) float64 { return float64(n) }, Doc: "harness test kernel"})
	variant.RegisterKernel(variant.Kernel{Name: crashKernel, Family: "harnesstest", Bench: "HarnessCrash",
		Unit: "B", UnitsPerOp: func(int) float64 { return 64 }, Doc: "harness crash-isolation test kernel"})
	variant.Register(
		sumVariant(testKernel, variant.GenericName, nil),
		sumVariant(testKernel, "mode=fast/align=64", nil),
		sumVariant(testKernel, "mode=slow/align=64", nil),
		sumVariant(testKernel, "mode=needs/align=64", []string{"nosuchfeature"}),
	)
	off := sumVariant(testKernel, "mode=fast/align=64+8", nil)
	off.OffsetSweep = true
	variant.Register(off)

	segv := sumVariant(crashKernel, "mode=segv", nil)
	segv.New = func(size int, seed uint64) variant.Instance { return &faultInstance{segv: true} }
	sigill := sumVariant(crashKernel, "mode=sigill", nil)
	sigill.New = func(size int, seed uint64) variant.Instance { return &faultInstance{} }
	late := sumVariant(crashKernel, "mode=late", nil)
	late.New = func(size int, seed uint64) variant.Instance {
		return &faultInstance{segv: true, after: 3 * time.Millisecond}
	}
	hang := sumVariant(crashKernel, "mode=hang", nil)
	hang.New = func(size int, seed uint64) variant.Instance {
		return &faultInstance{hang: true, after: 3 * time.Millisecond}
	}
	wrong := sumVariant(crashKernel, "mode=wrong", nil)
	wrong.Verify = func(size int, seed uint64) error {
		return &variant.Mismatch{Kernel: crashKernel, Variant: "mode=wrong", Input: "random #3", Index: 5, Got: "0x1", Want: "0x2"}
	}
	variant.Register(sumVariant(crashKernel, variant.GenericName, nil), segv, sigill, late, hang, wrong)
}

// sumVariant is a variant that sums a buffer of size (or 64) bytes.
func sumVariant(kernel, name string, features []string) variant.Variant {
	return variant.Variant{Kernel: kernel, Name: name, Features: features,
		New: func(size int, seed uint64) variant.Instance {
			buf := make([]byte, max(size, 64))
			for i := range buf {
				buf[i] = byte(seed) + byte(i)
			}
			return &sumInstance{buf: buf}
		},
		Verify: func(int, uint64) error { return nil }}
}

type sumInstance struct {
	buf []byte
	acc uint64
}

func (s *sumInstance) Run(n int) {
	for i := 0; i < n; i++ {
		for _, b := range s.buf {
			s.acc = s.acc*31 + uint64(b)
		}
	}
}

func (s *sumInstance) Check() error { return nil }

// faultInstance crashes the process in Run: with SIGSEGV (a real fault on
// a page mapped without access) or SIGILL, or hangs; with after set, only once Run has taken
// that much time in total (so during sampling rather than calibration).
type faultInstance struct {
	segv  bool
	hang  bool
	after time.Duration
	spent time.Duration
	s     sumInstance
}

func (f *faultInstance) Run(n int) {
	start := time.Now()
	s := &f.s
	if s.buf == nil {
		s.buf = make([]byte, 16)
	}
	s.Run(n)
	f.spent += time.Since(start)
	if f.spent < f.after {
		return
	}
	for f.hang {
		s.Run(1)
	}
	if f.segv {
		page, err := unix.Mmap(-1, 0, 4096, unix.PROT_NONE, unix.MAP_ANON|unix.MAP_PRIVATE)
		if err == nil {
			page[0] = 1 // faults: the page is mapped without access
		}
	}
	syscall.Kill(syscall.Getpid(), syscall.SIGILL)
	time.Sleep(time.Second)
}

func (f *faultInstance) Check() error { return nil }

// measuringCPU returns the CPU the tests pin their workers to: the
// highest one this process may run on, as tunelab's --cpu default. A
// cpuset or taskset need not contain CPU NumCPU-1 (taskset -c 1 leaves
// NumCPU 1), and pinning outside it fails or escapes it. It is -1 (no
// pinning) where the affinity mask cannot be read.
func measuringCPU(t *testing.T) int {
	t.Helper()
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		t.Logf("reading the affinity mask: %v; workers run unpinned", err)
		return -1
	}
	for c := len(set)*64 - 1; c >= 0; c-- {
		if set.IsSet(c) {
			return c
		}
	}
	return -1
}
