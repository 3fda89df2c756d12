package resultfile

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/kernels/cpu"
)

var testConfig = [][2]string{{"goos", "linux"}, {"pkg", ""}, {"cpu-vendor", "AuthenticAMD"}, {"run-id", "00000000000000aa"}}

// TestWriterRoundTrip writes a segment, samples and every kind of
// harness line, and reads them back as written.
func TestWriterRoundTrip(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b, testConfig)
	w.StartSegment("00000000000000aa", 2)
	own := [][2]string{{"pkg", "github.com/tunelab/tunelab/kernels/poly1305"}, {"kernel", "poly1305"}}
	steps := []func() error{
		func() error { return w.Round("poly1305/size=64", 1) },
		func() error {
			return w.Write(Sample{Name: BenchName("Poly1305", "isa=avx2", 64), Config: own, Iters: 100, Values: []benchfmt.Value{{Value: 5, Unit: "ns/op"}}})
		},
		func() error { return w.Eliminated("poly1305/size=64", "isa=generic", 12, "slower by 30%") },
		func() error { return w.Excluded("poly1305/size=64", "isa=avx512", "verify mismatch: byte 3") },
		func() error { return w.Done("poly1305/size=64") },
		func() error { return w.AlignPlacement("isa=avx2/align=64", "requested=64 head=0x40") },
		func() error { return w.AlignExcluded("isa=avx2/align=64+4", "no samples") },
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	got := readBack(t, b.String())
	want := []string{
		"segment run=00000000000000aa n=2", "round group=poly1305/size=64 n=1",
		"result Poly1305/isa=avx2/size=64 pkg=github.com/tunelab/tunelab/kernels/poly1305 kernel=poly1305 cpu-vendor=AuthenticAMD",
		"eliminated group=poly1305/size=64 label=isa=generic reason=n=12 slower by 30%",
		"excluded group=poly1305/size=64 label=isa=avx512 reason=verify mismatch: byte 3",
		"done group=poly1305/size=64", "align-placement label=isa=avx2/align=64 reason=requested=64 head=0x40",
		"align-excluded label=isa=avx2/align=64+4 reason=no samples",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("read back:\n%s\nwant:\n%s\nfile:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"), b.String())
	}
}

// readBack reads a file and describes each record in one line.
func readBack(t *testing.T, data string) []string {
	t.Helper()
	r := NewReader(strings.NewReader(data), "w.txt")
	var out []string
	for r.Scan() {
		if m := r.Mark(); m != nil {
			out = append(out, describe(m))
			continue
		}
		res := r.Result()
		out = append(out, fmt.Sprintf("result %s pkg=%s kernel=%s cpu-vendor=%s", res.Name, res.GetConfig("pkg"), res.GetConfig("kernel"), res.GetConfig("cpu-vendor")))
	}
	if err := r.Err(); err != nil || len(r.Warnings()) > 0 {
		t.Fatalf("reading back: %v %q", err, r.Warnings())
	}
	return out
}

func describe(m *Mark) string {
	s := m.Kind
	for _, kv := range [][2]string{{"run", m.Run}, {"group", m.Group}, {"label", m.Label}, {"n", fmt.Sprint(m.N)}, {"reason", m.Reason}} {
		if kv[1] != "" && kv[1] != "0" {
			s += " " + kv[0] + "=" + kv[1]
		}
	}
	if m.Err != nil {
		s += " err=" + m.Err.Error()
	}
	return s
}

// TestWriterRefusesWhatReadersSkip checks that a sample whose ns/op a
// reader would refuse is not written (ErrInvalid), and that a later
// value a reader would refuse (a NaN counter) is left out of its line.
func TestWriterRefusesWhatReadersSkip(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b, testConfig)
	w.StartSegment("00000000000000aa", 1)
	for _, ns := range []float64{math.NaN(), 0, -5, math.Inf(1)} {
		err := w.Write(Sample{Name: "X/isa=generic", Iters: 10, Values: []benchfmt.Value{{Value: ns, Unit: "ns/op"}}})
		if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "sample not written") {
			t.Errorf("ns/op %v: error %v, want the sample refused (ErrInvalid)", ns, err)
		}
	}
	if b.Len() != 0 {
		t.Errorf("refused samples wrote %q", b.String())
	}
	vals := []benchfmt.Value{{Value: 5, Unit: "ns/op"}, {Value: math.NaN(), Unit: "cycles/op"}, {Value: 3, Unit: "instructions/op"}}
	if err := w.Write(Sample{Name: "X/isa=generic", Iters: 10, Values: vals}); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "NaN") || !strings.Contains(out, " 5 ns/op 3 instructions/op\n") ||
		!strings.HasPrefix(out, CommentPrefix+"segment 00000000000000aa 1\n") {
		t.Errorf("written:\n%s\nwant the segment line first, then one line with ns/op and instructions/op only", out)
	}
}

// TestMalformedMarks checks what the reader makes of harness lines a
// writer does not write: a known kind with the wrong fields carries Err,
// an unknown kind is returned as it is.
func TestMalformedMarks(t *testing.T) {
	for _, c := range []struct{ line, want string }{
		{"segment x", `segment run=x err=expected "segment <run-id> <n>", got "segment x"`},
		{"segment x 0", `segment run=x err=expected a segment number >= 1, got "0"`},
		{"round g zero", `round group=g err=expected a round number >= 1, got "zero"`},
		{"done", `done err=expected "done <group>", got "done"`},
		{"done g extra", `done group=g err=expected "done <group>", got "done g extra"`},
		{"excluded g", `excluded group=g err=expected "excluded <group> <label> <reason>", got "excluded g"`},
		{"future-kind a b", "future-kind"},
	} {
		got := readBack(t, CommentPrefix+c.line+"\n")
		if len(got) != 1 || got[0] != c.want {
			t.Errorf("%q: read %q, want %q", c.line, got, c.want)
		}
	}
}

func TestBenchNameRoundTrip(t *testing.T) {
	for _, c := range []struct {
		variant string
		size    int
	}{{"isa=avx2/rot=prol", 0}, {"isa=generic", 64}, {"isa=avx2/align=64+8", 1 << 20}} {
		name := BenchName("KeccakX4", c.variant, c.size)
		v, size, ok := ParseBenchName("KeccakX4", name, c.size > 0)
		if !ok || v != c.variant || size != c.size {
			t.Errorf("ParseBenchName(%q) = %q, %d, %v; want %q, %d", name, v, size, ok, c.variant, c.size)
		}
	}
	if g := GroupKey("poly1305", 64); g != "poly1305/size=64" || GroupKey("keccak.x4", 0) != "keccak.x4" {
		t.Errorf("GroupKey = %q, want poly1305/size=64 (and keccak.x4 unsized)", g)
	}
}

// TestCPUNameNeverEmpty checks the "cpu" config value of a CPU that
// reports no brand string (QEMU's and some hypervisors' models): it names
// the CPU by vendor, family, model and stepping instead of writing an
// empty line.
func TestCPUNameNeverEmpty(t *testing.T) {
	tests := []struct {
		c    cpu.CPU
		want string
	}{
		{cpu.CPU{Brand: "  AMD EPYC 9R14 96-Core Processor ", Vendor: cpu.VendorAMD}, "AMD EPYC 9R14 96-Core Processor"},
		{cpu.CPU{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Stepping: 1}, "AuthenticAMD family 0x19 model 0x11 stepping 1"},
		{cpu.CPU{Brand: " ", Family: 6, Model: 0x55}, "unknown vendor family 0x6 model 0x55 stepping 0"},
	}
	for _, tt := range tests {
		if got := cpuName(&tt.c); got != tt.want {
			t.Errorf("cpuName(brand %q, vendor %q) = %q, want %q", tt.c.Brand, tt.c.Vendor, got, tt.want)
		}
	}
}
