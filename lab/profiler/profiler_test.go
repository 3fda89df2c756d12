package profiler

import (
	"bytes"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/tunelab/tunelab/kernels/variant"
	_ "github.com/tunelab/tunelab/lab/calib"
)

//go:noinline
func knownFunc(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i * i
	}
	return s
}

func testMeta() Meta {
	return Meta{Kernel: "calib", Variant: "isa=generic", Size: 64, CPU: "Zen 4 (test)", Event: "cpu-clock",
		Unit: "nanoseconds", Period: 100_000, Source: "test", Start: time.Unix(1700000000, 0), Duration: time.Second}
}

func TestBuildRoundTrip(t *testing.T) {
	entry := uint64(reflect.ValueOf(knownFunc).Pointer())
	counts := map[uint64]int64{entry: 3, entry + 4: 7, 0x10: 1} // 0x10 resolves to no function
	p, err := Build(counts, testMeta(), SelfMappings())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	q, err := profile.Parse(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.CheckValid(); err != nil {
		t.Fatalf("parsed profile invalid: %v", err)
	}
	if len(q.SampleType) != 2 || q.SampleType[0].Type != "samples" || q.SampleType[1].Type != "cpu-clock" ||
		q.SampleType[1].Unit != "nanoseconds" || q.DefaultSampleType != "cpu-clock" {
		t.Errorf("sample types = %v default %q, want samples/count, cpu-clock/nanoseconds", q.SampleType, q.DefaultSampleType)
	}
	var total int64
	for _, s := range q.Sample {
		for k, want := range map[string]string{"kernel": "calib", "variant": "isa=generic", "size": "64", "cpu": "Zen 4 (test)"} {
			if got := s.Label[k]; len(got) != 1 || got[0] != want {
				t.Errorf("sample label %s = %v, want %q", k, got, want)
			}
		}
		if s.Value[1] != s.Value[0]*100_000 {
			t.Errorf("sample values %v: cpu-clock must be samples x period", s.Value)
		}
		total += s.Value[0]
		if addr := s.Location[0].Address; addr == entry && (len(s.Location[0].Line) == 0 ||
			!strings.HasSuffix(s.Location[0].Line[0].Function.Name, ".knownFunc") ||
			!strings.HasSuffix(s.Location[0].Line[0].Function.Filename, "profiler_test.go")) {
			t.Errorf("location %#x = %+v, want knownFunc in profiler_test.go", addr, s.Location[0].Line)
		}
	}
	if total != 11 || !strings.Contains(strings.Join(q.Comments, "\n"), "sampling source: test") {
		t.Errorf("total samples %d (want 11), comments %q", total, q.Comments)
	}
}

func TestParseMapsLine(t *testing.T) {
	m := parseMapsLine("00400000-00c52000 r-xp 00001000 08:01 1234   /tmp/go build/tunelab")
	if m == nil || m.Start != 0x400000 || m.Limit != 0xc52000 || m.Offset != 0x1000 || m.File != "/tmp/go build/tunelab" {
		t.Errorf("parseMapsLine = %+v", m)
	}
	for _, l := range []string{"00400000-00c52000 r--p 00000000 08:01 1 /x", "garbage", "zz-00c5 r-xp 0 0 0"} {
		if m := parseMapsLine(l); m != nil {
			t.Errorf("parseMapsLine(%q) = %+v, want nil", l, m)
		}
	}
}

// hotVariant returns calib's best runnable variant: generated asm where
// this build has it, else generic.
func hotVariant(t *testing.T) *variant.Variant {
	v, err := Default("calib", 0)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestHotLoopShare profiles the calibration kernel, whose time is all in
// one dependent ADD chain, and requires >= 90% of samples in its function.
// perf_event_open samples cpu-clock at 10 kHz of CPU time; where it is not
// permitted, the runtime/pprof fallback samples at 100 Hz, and a loaded
// host gives the thread less CPU time: the recording is lengthened (300
// ms, 1.2 s, 4.8 s) until it holds the 100 samples the share is judged on.
func TestHotLoopShare(t *testing.T) {
	v := hotVariant(t)
	var log bytes.Buffer
	var r *Result
	d := 300 * time.Millisecond
	for try := 0; ; try++ {
		var err error
		log.Reset()
		if r, err = Record(Options{Variant: v, Duration: d, Seed: 1, Log: &log}); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s %s: %d samples in %v, %s", v.Kernel, v.Name, r.Samples, d, strings.TrimSpace(log.String()))
		if r.Samples >= 100 || try == 2 {
			break
		}
		d *= 4
	}
	if r.Samples < 100 {
		t.Fatalf("%s: only %d samples in %v from %s", v.Name, r.Samples, d, r.Source)
	}
	want := v.Symbol
	inHot, total := int64(0), int64(0)
	for _, s := range r.Profile.Sample {
		_, fn, file, _ := leaf(s)
		total += s.Value[0]
		if want != "" && fn == want || want == "" && strings.Contains(fn, "calib.") {
			inHot += s.Value[0]
			if want != "" && runtime.GOARCH == "amd64" && !strings.HasSuffix(file, ".s") {
				t.Errorf("%s: hot location in %s, want the generated .s file", v.Name, file)
			}
		}
	}
	if share := float64(inHot) / float64(total); share < 0.9 {
		t.Errorf("%s: %.1f%% of %d samples in %q, want >= 90%%", v.Name, 100*share, total, want)
	}
	var buf bytes.Buffer
	if err := r.Profile.Write(&buf); err != nil {
		t.Fatal(err)
	}
	if _, err := profile.Parse(&buf); err != nil {
		t.Fatalf("recorded profile does not parse back: %v", err)
	}
}
