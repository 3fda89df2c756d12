package perfcounters

import (
	"encoding/binary"
	"runtime"
	"strings"
	"testing"
)

func TestSamplerCPUClock(t *testing.T) {
	skipIfForbidden(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s, err := OpenSampler(mustSpecs(t, "cpu-clock")[0], SampleOptions{Period: 100_000}) // 10 kHz
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Start(); err != nil {
		t.Fatal(err)
	}
	sink += spin(25000) // about 75 ms of CPU
	if err := s.Stop(); err != nil {
		t.Fatal(err)
	}
	total, inSpin := 0, 0
	n, err := s.Drain(func(x Sample) {
		total++
		if f := runtime.FuncForPC(uintptr(x.IP)); f != nil && strings.HasSuffix(f.Name(), ".spin") {
			inSpin++
		}
		if !x.User {
			t.Errorf("sample IP %#x not in user mode", x.IP)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d samples, %d in spin, %d lost", n, inSpin, s.Lost())
	if n != total || n < 100 {
		t.Fatalf("got %d samples over ~75 ms of CPU at 10 kHz, want >= 100", n)
	}
	if inSpin < n/2 {
		t.Errorf("only %d of %d samples in spin, want most", inSpin, n)
	}
	if n2, _ := s.Drain(func(Sample) {}); n2 != 0 {
		t.Errorf("second Drain returned %d samples, want 0", n2)
	}
}

func TestSamplerUnavailableHardware(t *testing.T) {
	skipIfForbidden(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	s, err := OpenSampler(mustSpecs(t, "cycles")[0], SampleOptions{Freq: 1000})
	if err == nil {
		s.Close()
		t.Skip("host has a hardware PMU")
	}
	if !strings.Contains(err.Error(), "ENOENT") {
		t.Errorf("OpenSampler(cycles) = %v, want an ENOENT reason", err)
	}
}

func TestParseRecords(t *testing.T) {
	ne := binary.NativeEndian
	rec := func(typ uint32, misc uint16, words ...uint64) []byte {
		b := make([]byte, 8+8*len(words))
		ne.PutUint32(b, typ)
		ne.PutUint16(b[4:], misc)
		ne.PutUint16(b[6:], uint16(len(b)))
		for i, w := range words {
			ne.PutUint64(b[8+8*i:], w)
		}
		return b
	}
	var buf []byte
	buf = append(buf, rec(recordSample, miscUser, 0x401000, 7|9<<32)...)
	buf = append(buf, rec(3, 0, 1, 2, 3)...) // PERF_RECORD_COMM-like, skipped
	buf = append(buf, rec(recordLost, 0, 1, 5)...)
	buf = append(buf, rec(recordSample, 1, 0xffffffff81000000, 7|9<<32)...)
	var got []Sample
	lost, err := parseRecords(buf, func(s Sample) { got = append(got, s) })
	if err != nil {
		t.Fatal(err)
	}
	want := []Sample{{IP: 0x401000, PID: 7, TID: 9, User: true}, {IP: 0xffffffff81000000, PID: 7, TID: 9}}
	if lost != 5 || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("parseRecords = %+v lost %d, want %+v lost 5", got, lost, want)
	}
	if _, err := parseRecords(buf[:len(buf)-3], func(Sample) {}); err == nil {
		t.Error("parseRecords accepted a truncated record")
	}
}
