package main

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/profiler"
)

// fixtureProfile has samples on lines of testdata/profile_fixture_amd64.s.
func fixtureProfile(counts map[int64]int64) *profile.Profile {
	fn := &profile.Function{ID: 1, Name: "github.com/tunelab/tunelab/kernels/keccak.permute", Filename: "testdata/profile_fixture_amd64.s"}
	p := &profile.Profile{
		SampleType:        []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu-clock", Unit: "nanoseconds"}},
		DefaultSampleType: "cpu-clock", Function: []*profile.Function{fn},
		Comments: []string{"tunelab profile keccak.x4 isa=avx512vl size=0", "sampling source: fixture"},
	}
	for _, line := range []int64{3, 4, 6, 8, 9, 10} {
		c := counts[line]
		if c == 0 {
			continue
		}
		loc := &profile.Location{ID: uint64(len(p.Location) + 1), Address: uint64(0x4000 + 4*line), Line: []profile.Line{{Function: fn, Line: line}}}
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc}, Value: []int64{c, c * 100_000}})
	}
	return p
}

func TestProfileTopGolden(t *testing.T) {
	var b bytes.Buffer
	profiler.WriteTop(&b, fixtureProfile(map[int64]int64{3: 30, 4: 10, 6: 40, 8: 15, 9: 3, 10: 2}), 4, "")
	golden(t, "profile_top.golden", b.String())
}

func TestProfileDiffGolden(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pb.gz"), filepath.Join(dir, "b.pb.gz")
	if err := writeProfile(fixtureProfile(map[int64]int64{3: 30, 4: 10, 6: 40, 8: 20}), a); err != nil {
		t.Fatal(err)
	}
	if err := writeProfile(fixtureProfile(map[int64]int64{3: 30, 4: 30, 6: 20, 8: 20}), b); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := runCLI(t, "profile", "--diff", "-n", "3", a, b)
	if code != 0 {
		t.Fatalf("profile --diff: exit %d, stderr %q", code, stderr)
	}
	golden(t, "profile_diff.golden", strings.ReplaceAll(out, dir, "DIR"))
}

func TestProfileUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"profile"},
		{"profile", "--kernel", "no-such-kernel", "-o", "x.pb.gz"},
		{"profile", "--kernel", "calib", "--variant", "isa=nope", "-o", "x.pb.gz"},
		{"profile", "--kernel", "calib"},
		{"profile", "--kernel", "calib", "--seconds", "0", "--top"},
		{"profile", "--diff", "one.pb.gz"},
		{"profile", "--kernel", "calib", "--top", "extra"},
	} {
		_, stderr, code := runCLI(t, args...)
		if code != 2 {
			t.Errorf("tunelab %v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

// TestProfileRecordLive profiles calib for 0.3 s. Where perf_event_open
// is not permitted, profile falls back to runtime/pprof, which samples at
// 100 Hz of CPU time: a loaded host may give it none in 0.3 s, so an
// empty fallback profile is recorded again for 3 s before it counts as
// a failure.
func TestProfileRecordLive(t *testing.T) {
	out := filepath.Join(t.TempDir(), "calib.pb.gz")
	var p *profile.Profile
	for _, seconds := range []string{"0.3", "3"} {
		os.Remove(out)
		stdout, stderr, code := runCLI(t, "profile", "--kernel", "calib", "--seconds", seconds, "-o", out, "--top", "-n", "5")
		if code != 0 {
			t.Fatalf("tunelab profile: exit %d, stderr %q", code, stderr)
		}
		if !strings.Contains(stderr, "sampling source:") || !strings.Contains(stdout, "hottest instructions") {
			t.Errorf("profile output lacks the sampling source or top list:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		p, err = profile.Parse(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Sample) > 0 || !strings.Contains(stderr, "sampling source: runtime/pprof") {
			break
		}
	}
	if err := p.CheckValid(); err != nil || len(p.Sample) == 0 || p.Sample[0].Label["kernel"][0] != "calib" {
		var labels map[string][]string
		if len(p.Sample) > 0 {
			labels = p.Sample[0].Label
		}
		t.Errorf("written profile: valid=%v, %d samples, labels of the first %v; want calib's samples", err, len(p.Sample), labels)
	}
	top, _, code := runCLI(t, "profile", "--top", out)
	if code != 0 || !strings.Contains(top, "calib") {
		t.Errorf("profile --top FILE: exit %d, output %q", code, top)
	}
}

// TestProfileDefaultOnLowestTier masks every feature: the default variant
// must be one that runs there (the generic one), not a SIMD variant.
func TestProfileDefaultOnLowestTier(t *testing.T) {
	if testing.Short() {
		t.Skip("profiles in a child process")
	}
	out, code := runMasked(t, "all=off", "profile", "--kernel", "mldsa.mulntt", "--seconds", "0.2", "--top", "-n", "3")
	if code != 0 || !strings.Contains(out, "profile: mldsa.mulntt "+variant.GenericName+" size 0:") {
		t.Errorf("TUNELAB_CPU=all=off profile --kernel mldsa.mulntt: exit %d, want 0 profiling %s:\n%s", code, variant.GenericName, out)
	}
}

// TestProfileNamedUnrunnableNamesAlternative names an AVX-512 variant with
// AVX-512 masked off.
func TestProfileNamedUnrunnableNamesAlternative(t *testing.T) {
	var wide *variant.Variant
	for _, v := range variant.Variants("mldsa.mulntt") {
		if wide == nil && slices.Contains(v.Features, "avx512f") {
			wide = v
		}
	}
	if wide == nil {
		t.Skip("mldsa.mulntt has no AVX-512 variant in this build")
	}
	out, code := runMasked(t, "avx512f=off", "profile", "--kernel", "mldsa.mulntt", "--variant", wide.Name, "--top")
	want := "tunelab: profile: mldsa.mulntt " + wide.Name + " needs avx512f"
	if code != 1 || !strings.HasPrefix(out, want) || !strings.Contains(out, "; runnable alternative: ") {
		t.Errorf("exit %d, output %q; want exit 1, %q ... and a runnable alternative", code, out, want)
	}
}
