package perfcounters

import (
	"math"
	"runtime"
	"testing"
	"time"
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
