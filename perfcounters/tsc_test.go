package perfcounters

import (
	"math"
	"reflect"
	"runtime"
	"testing"
	"time"

	kcpuid "github.com/klauspost/cpuid/v2"
)

func TestTSCMonotonic(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev := RDTSC()
	for i := range 10000 {
		var now uint64
		if i%2 == 0 {
			now = RDTSC()
		} else {
			now, _ = RDTSCP()
		}
		if now < prev {
			t.Fatalf("read %d: TSC went backwards from %d to %d", i, prev, now)
		}
		prev = now
	}
	t0 := RDTSC()
	time.Sleep(2 * time.Millisecond)
	if d := RDTSC() - t0; d == 0 {
		t.Error("TSC did not advance over a 2 ms sleep")
	}
}

func TestTSCHzPlausible(t *testing.T) {
	hz, src := TSCHz()
	t.Logf("TSC %.6f GHz from %s", hz/1e9, src)
	if hz < 1e8 || hz > 1e10 || src == "" {
		t.Fatalf("TSCHz() = %v (%q), want 0.1-10 GHz with a source", hz, src)
	}
	cal := CalibrateTSC(20 * time.Millisecond)
	if math.Abs(cal-hz)/hz > 0.03 {
		t.Errorf("TSCHz %.0f (%s) and calibration %.0f differ by more than 3%%", hz, src, cal)
	}
	if hz2, src2 := TSCHz(); hz2 != hz || src2 != src {
		t.Errorf("TSCHz not stable: %v %q then %v %q", hz, src, hz2, src2)
	}
}

// spin runs n thousand dependent xorshift steps (about 3 us each on
// current CPUs) and returns a value so the loop is not optimized away. The
// amount of CPU work is fixed, whatever the machine's load.
func spin(n int) uint64 {
	x := uint64(88172645463325252)
	for range n {
		for range 1000 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
		}
	}
	return x
}

var sink uint64

// forceNoRDTSCP makes RDTSCP behave as on a CPU whose CPUID does not
// enumerate RDTSCP, until the test ends.
func forceNoRDTSCP(t *testing.T) {
	have, f := haveRDTSCP, tscp
	haveRDTSCP, tscp = false, tscpFor(false)
	t.Cleanup(func() { haveRDTSCP, tscp = have, f })
}

// funcPC identifies a function for comparison.
func funcPC(f func() (uint64, uint32)) uintptr { return reflect.ValueOf(f).Pointer() }

func TestRDTSCPFollowsCPUID(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("RDTSCP is an amd64 instruction")
	}
	if got, want := HaveRDTSCP(), kcpuid.CPU.Supports(kcpuid.RDTSCP); got != want {
		t.Errorf("HaveRDTSCP() = %v, klauspost/cpuid says RDTSCP %v", got, want)
	}
	if funcPC(tscpFor(false)) != funcPC(lfenceRDTSC) {
		t.Error("tscpFor(false) is not the LFENCE; RDTSC fallback")
	}
	if funcPC(tscpFor(true)) != funcPC(rdtscp) {
		t.Error("tscpFor(true) is not RDTSCP")
	}
}

func TestRDTSCPFallbackWhenAbsent(t *testing.T) {
	forceNoRDTSCP(t)
	if HaveRDTSCP() {
		t.Fatal("HaveRDTSCP() = true with RDTSCP reported absent")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	prev, _ := RDTSCP()
	for i := range 10000 {
		now, aux := RDTSCP()
		if now < prev {
			t.Fatalf("fallback read %d: TSC went backwards from %d to %d", i, prev, now)
		}
		if aux != 0 {
			t.Fatalf("fallback read %d: aux %#x, want 0 (LFENCE; RDTSC has no TSC_AUX)", i, aux)
		}
		prev = now
	}
	sink += spin(100)
	if now, _ := RDTSCP(); now <= prev {
		t.Errorf("fallback TSC did not advance over about 0.3 ms of work: %d then %d", prev, now)
	}
}

// TestRDTSCPPathsDiffer tells the paths apart by TSC_AUX on a thread
// pinned to a CPU other than 0: RDTSCP reports that CPU, the fallback 0.
// The CPU is chosen, not the one the thread happens to run on, so that
// the test runs wherever the process may use a CPU other than 0. Linux
// writes every CPU's number to its TSC_AUX at boot; a user-mode emulator
// (qemu-x86_64) has no kernel to do so and its RDTSCP returns 0: with the
// RDTSCP path selected (TestRDTSCPFollowsCPUID), an aux of 0 on CPU c > 0
// means this host cannot tell the paths apart, and the test skips.
func TestRDTSCPPathsDiffer(t *testing.T) {
	if !HaveRDTSCP() {
		t.Skip("CPUID reports no RDTSCP: only the fallback can run here")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu, restore := pinOffCPU0(t)
	defer restore()
	switch _, aux := RDTSCP(); {
	case aux == 0 && funcPC(tscp) == funcPC(rdtscp):
		t.Skipf("RDTSCP on CPU %d returned TSC_AUX 0: nothing keeps CPU numbers in TSC_AUX here (user-mode emulation), so the paths look alike", cpu)
	case int(aux&0xfff) != cpu:
		t.Errorf("RDTSCP on CPU %d: aux %#x", cpu, aux)
	}
	forceNoRDTSCP(t)
	if _, aux := RDTSCP(); aux != 0 {
		t.Errorf("fallback on CPU %d: aux %#x, want 0: RDTSCP ran instead of LFENCE; RDTSC", cpu, aux)
	}
}
