package profiler

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/tunelab/tunelab/kernels/variant"
)

// synthetic builds a profile whose samples sit on lines of a fake .s file.
func synthetic(t *testing.T, file string, counts map[int64]int64) *profile.Profile {
	t.Helper()
	fn := &profile.Function{ID: 1, Name: "pkg.kernel", Filename: file}
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu-clock", Unit: "nanoseconds"}},
		DefaultSampleType: "cpu-clock", Comments: []string{"test profile"}}
	for line, c := range counts {
		loc := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x1000 + 4*line),
			Line: []profile.Line{{Function: fn, Line: line}}}
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{c, c * 10}})
	}
	p.Function = []*profile.Function{fn}
	return p
}

func writeAsm(t *testing.T) string {
	file := filepath.Join(t.TempDir(), "k_amd64.s")
	src := "TEXT ·kernel(SB), 0, $0\n\t// theta: column parities\n\tVPXORQ Z1, Z2, Z3\n\tVPROLQ $1, Z3, Z4\n\t// chi\n\tVPTERNLOGQ $0xd2, Z5, Z6, Z7\n\tJNZ loop\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestTop(t *testing.T) {
	file := writeAsm(t)
	p := synthetic(t, file, map[int64]int64{3: 10, 4: 60, 6: 25, 7: 5})
	hots := Top(p, 3)
	want := []struct {
		line  int64
		share float64
		src   string
		note  string
	}{{3, 0.10, "VPXORQ Z1, Z2, Z3", "theta: column parities"}, {4, 0.60, "VPROLQ $1, Z3, Z4", "theta: column parities"}, {6, 0.25, "VPTERNLOGQ $0xd2, Z5, Z6, Z7", "chi"}}
	if len(hots) != len(want) {
		t.Fatalf("Top = %+v, want %d entries", hots, len(want))
	}
	for i, w := range want {
		h := hots[i]
		if h.Line != w.line || h.Share < w.share-1e-9 || h.Share > w.share+1e-9 || h.Source != w.src || h.Note != w.note {
			t.Errorf("Top[%d] = %+v, want line %d share %.2f source %q note %q", i, h, w.line, w.share, w.src, w.note)
		}
	}
	var b bytes.Buffer
	WriteTop(&b, p, 3, "")
	if !strings.Contains(b.String(), "60.00%") || !strings.Contains(b.String(), "k_amd64.s:4") || !strings.Contains(b.String(), "# test profile") {
		t.Errorf("WriteTop output:\n%s", b.String())
	}
}

func TestDiff(t *testing.T) {
	file := writeAsm(t)
	a := synthetic(t, file, map[int64]int64{4: 50, 6: 50})
	b := synthetic(t, file, map[int64]int64{4: 20, 6: 60, 7: 20})
	moved := Diff(a, b, 10)
	if len(moved) != 3 || moved[0].Line != 4 || moved[0].A != 0.5 || moved[0].B != 0.2 ||
		moved[1].Line != 7 || moved[1].B != 0.2 || moved[2].Line != 6 {
		t.Errorf("Diff = %+v, want line 4 (-30), line 7 (+20), line 6 (+10)", moved)
	}
	var out bytes.Buffer
	WriteDiff(&out, a, b, 2)
	if !strings.Contains(out.String(), "-30.00") || strings.Count(out.String(), "\n") != 3 {
		t.Errorf("WriteDiff output:\n%s", out.String())
	}
}

func TestRuntimeFallback(t *testing.T) {
	v := hotVariant(t)
	o := Options{Variant: v, Duration: 600 * time.Millisecond, CPU: "test"}
	inst := v.New(0, 1)
	r, err := recordRuntime(o, inst, calibrateBatch(inst, 5*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	// SIGPROF samples at 100 Hz of CPU time: on a loaded machine 600 ms of
	// wall time may give only a few.
	if !strings.Contains(r.Source, "runtime/pprof") || r.Samples < 1 {
		t.Errorf("runtime fallback: source %q, %d samples", r.Source, r.Samples)
	}
	for _, s := range r.Profile.Sample {
		if s.Label["kernel"][0] != "calib" {
			t.Fatalf("runtime fallback sample lacks the kernel label: %v", s.Label)
		}
	}
}

func TestDefault(t *testing.T) {
	if _, err := Default("no-such-kernel", 0); err == nil {
		t.Error("Default accepted an unknown kernel")
	}
	v, err := Default("calib", 0)
	if err != nil || v.Kernel != "calib" {
		t.Errorf("Default(calib) = %v, %v", v, err)
	}
}

func TestParseObjdump(t *testing.T) {
	out := []byte("\nDisassembly of section .text:\n\n00000000005e0480 <github.com/x.chainE0>:\n  5e0480:\tmov    0x8(%rsp),%rax\n  5e0485:\tvprolq $0x1,%zmm3,%zmm4\n")
	m := parseObjdump(out)
	if len(m) != 2 || m[0x5e0480] != "mov 0x8(%rsp),%rax" || m[0x5e0485] != "vprolq $0x1,%zmm3,%zmm4" {
		t.Errorf("parseObjdump = %v", m)
	}
}

// registerSharesKernel registers TestKernelShares's kernel once per test
// binary: the registry is global, and go test -count runs the test again.
var registerSharesKernel sync.Once

// TestKernelShares checks that samples in a registered variant's symbol
// count for its kernel and the rest for other.
func TestKernelShares(t *testing.T) {
	registerSharesKernel.Do(func() {
		variant.RegisterKernel(variant.Kernel{Name: "test.kernelshares", Family: "test", Bench: "TestKernelShares"})
		variant.Register(variant.Variant{Kernel: "test.kernelshares", Name: "isa=x", Symbol: "pkg.hot"})
	})
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}}}
	fn := func(name string) *profile.Location {
		f := &profile.Function{ID: uint64(len(p.Function) + 1), Name: name, Filename: name + ".s"}
		p.Function = append(p.Function, f)
		l := &profile.Location{ID: uint64(len(p.Location) + 1), Line: []profile.Line{{Function: f, Line: 1}}}
		p.Location = append(p.Location, l)
		return l
	}
	hot, cold := fn("pkg.hot"), fn("pkg.cold")
	p.Sample = []*profile.Sample{{Location: []*profile.Location{hot}, Value: []int64{3}}, {Location: []*profile.Location{cold}, Value: []int64{1}}}
	kernels, shares, other := KernelShares(p)
	if len(kernels) != 1 || kernels[0] != "test.kernelshares" || shares[kernels[0]] != 0.75 || other != 0.25 {
		t.Errorf("KernelShares = %v, %v, other %v; want test.kernelshares 75%%, other 25%%", kernels, shares, other)
	}
}
