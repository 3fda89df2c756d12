package perfcounters

import (
	"runtime"
	"testing"
)

func TestPinToCurrentCPU(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu, restore, err := PinToCurrentCPU()
	if err != nil {
		t.Skipf("pinning not possible here: %v", err)
	}
	defer restore()
	if cpu < 0 || cpu >= 4096 {
		t.Fatalf("pinned to CPU %d", cpu)
	}
	for i := range 1000 {
		sink += spin(1)
		if _, aux := RDTSCP(); runtime.GOARCH == "amd64" && aux != 0 && int(aux&0xfff) != cpu {
			t.Fatalf("iteration %d: running on CPU %d after pinning to %d", i, aux&0xfff, cpu)
		}
	}
}
