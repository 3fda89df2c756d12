package main

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/align"
)

func TestAlignUsageErrors(t *testing.T) {
	for _, c := range []struct {
		args   []string
		wantIn string
	}{
		{[]string{"align"}, "--kernel is required"},
		{[]string{"align", "--kernel", "no.such"}, `unknown kernel "no.such"`},
		{[]string{"align", "--kernel", "keccak.x4", "--offsets", "0-64/4"}, "--offsets"},
		{[]string{"align", "--kernel", "keccak.x4", "--offsets", "4/2"}, "needs a range"},
		{[]string{"align", "--kernel", "keccak.x4", "--entry", "hot"}, `--entry "hot"`},
		{[]string{"align", "--kernel", "keccak.x4", "--budget", "0s"}, "--budget"},
		{[]string{"align", "--kernel", "shake128.many"}, "no offset-sweep"},
		{[]string{"align", "--kernel", "keccak.x4", "--size", "64"}, "fixed-size"},
	} {
		_, stderr, code := runCLI(t, c.args...)
		if code != 2 || !strings.Contains(stderr, c.wantIn) || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
			t.Errorf("tunelab %v: exit %d, stderr %q; want exit 2 and one line containing %q", c.args, code, stderr, c.wantIn)
		}
	}
}

func TestAlignMissingOffsetsListsAvailable(t *testing.T) {
	if !hasOffsetSweep("keccak.x4") {
		t.Skip("keccak.x4 has no offset-sweep variants in this build")
	}
	if _, err := align.DefaultBase("keccak.x4", 0); err != nil {
		t.Skip(err)
	}
	_, stderr, code := runCLI(t, "align", "--kernel", "keccak.x4", "--offsets", "0-8")
	if code != 2 || !strings.Contains(stderr, "no variant for offset(s) 1,2,3,5,6,7") ||
		!strings.Contains(stderr, "available offsets: 0,4,8,12,") {
		t.Errorf("exit %d, stderr %q; want exit 2 listing the missing and the available offsets", code, stderr)
	}
}

func hasOffsetSweep(kernel string) bool {
	for _, v := range variant.Variants(kernel) {
		if v.OffsetSweep {
			return true
		}
	}
	return false
}

// alignFixture is a fixed measurement: 16 offsets and align=none of a
// keccak.x4 variant, 40 samples each, offset 36 planted 4% slower and
// align=none 2% slower than the aligned placements.
func alignFixture() *align.Measurement {
	k := &variant.Kernel{Name: "keccak.x4", Family: "keccak", Bench: "KeccakX4", Unit: "perm",
		UnitsPerOp: func(int) float64 { return 4 }}
	base := "isa=avx512vl/rot=prol/chi=ternlog/regs=all/unroll=2/xpose=unpack"
	s := &align.Set{Kernel: k, Base: base}
	var centers []float64
	for o := 0; o < 64; o += 4 {
		knob := "64"
		if o > 0 {
			knob = "64+" + strconv.Itoa(o)
		}
		s.Arms = append(s.Arms, &align.Arm{Align: knob, Offset: o, Variant: &variant.Variant{Kernel: k.Name, Name: base + "/align=" + knob},
			Place: align.Placement{Head: uint64(0x4a2000 + o), Offset: o, Size: 412, LinesCrossed: (o + 411) / 64}})
		c := 250.0
		if o == 36 {
			c = 260
		}
		centers = append(centers, c)
	}
	s.Arms = append(s.Arms, &align.Arm{Align: "none", Offset: -1, Variant: &variant.Variant{Kernel: k.Name, Name: base + "/align=none"},
		Place: align.Placement{Head: 0x4a3017, Offset: 23, Size: 412, LinesCrossed: 7}})
	centers = append(centers, 255)
	m := &align.Measurement{Set: s, Entry: align.Warm, Samples: make([]align.Samples, len(s.Arms)),
		Excluded: make([]string, len(s.Arms)), TSCHz: 2.1e9, Rounds: 40,
		Notes: []string{"front-end events not counted: no PMU"}}
	rng := rand.New(rand.NewPCG(9, 9))
	for i, c := range centers {
		for range 40 {
			ns := c * (1 + 0.004*(2*rng.Float64()-1))
			m.Samples[i].Iters = append(m.Samples[i].Iters, 4000)
			m.Samples[i].Ns = append(m.Samples[i].Ns, float64(int(ns*1000))/1000)
			m.Samples[i].TSC = append(m.Samples[i].TSC, float64(int(ns*2100))/1000)
		}
	}
	return m
}

func TestAlignGolden(t *testing.T) {
	m := alignFixture()
	a := align.Analyze(m)
	var text, svg, res bytes.Buffer
	if err := align.WriteText(&text, a); err != nil {
		t.Fatal(err)
	}
	golden(t, "align_text.golden", text.String())
	cold := alignFixture()
	cold.Entry = align.Cold
	var coldText bytes.Buffer
	if err := align.WriteText(&coldText, align.Analyze(cold)); err != nil {
		t.Fatal(err)
	}
	golden(t, "align_text_cold.golden", coldText.String())
	if err := align.WriteSVG(&svg, a); err != nil {
		t.Fatal(err)
	}
	checkXML(t, svg.Bytes())
	golden(t, "align_svg.golden", svg.String())
	host := [][2]string{{"goos", "linux"}, {"goarch", "amd64"}, {"pkg", ""}, {"cpu", "AMD Ryzen 9 7950X 16-Core Processor"},
		{"uarch", "Zen 4"}, {"run-id", "00000000000000aa"}, {"date", "2026-01-02T03:04:05Z"}, {"tsc-hz", "2100000000"}}
	m.Samples = m.Samples[:1]
	m.Samples[0].Ns, m.Samples[0].TSC, m.Samples[0].Iters = m.Samples[0].Ns[:2], m.Samples[0].TSC[:2], m.Samples[0].Iters[:2]
	m.Set.Arms = m.Set.Arms[:1]
	if err := align.WriteResults(&res, host, m); err != nil {
		t.Fatal(err)
	}
	golden(t, "align_results.golden", res.String())
}

// checkXML fails unless doc is well-formed XML.
func checkXML(t *testing.T, doc []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed: %v", err)
		}
	}
}

func TestAlignShortRun(t *testing.T) {
	if !hasOffsetSweep("keccak.x1") {
		t.Skip("keccak.x1 has no offset-sweep variants in this build")
	}
	if _, err := align.DefaultBase("keccak.x1", 0); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for _, entry := range []string{"warm", "cold"} {
		out, svg := filepath.Join(dir, entry+".txt"), filepath.Join(dir, entry+".svg")
		stdout, stderr, code := runCLI(t, "align", "--kernel", "keccak.x1", "--offsets", "0,32", "--entry", entry,
			"--budget", "30ms", "--samples", "12", "--sample-time", "200us", "-o", out, "--svg", svg)
		if code != 0 {
			t.Fatalf("align %s: exit %d\nstderr: %s", entry, code, stderr)
		}
		for _, want := range []string{"sensitivity: slowest/fastest", "align=64 vs align=none", "placement: all 3 loop heads", "results: " + out} {
			if !strings.Contains(stdout, want) {
				t.Errorf("align %s: stdout lacks %q:\n%s", entry, want, stdout)
			}
		}
		checkResultFile(t, out, entry)
		doc, err := os.ReadFile(svg)
		if err != nil {
			t.Fatal(err)
		}
		checkXML(t, doc)
	}
}

// checkResultFile reads a result file with benchfmt and checks its config.
func checkResultFile(t *testing.T, path, entry string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := benchfmt.NewReader(f, path)
	n := 0
	for r.Scan() {
		res, ok := r.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		n++
		if res.GetConfig("align-entry") != entry || res.GetConfig("kernel") != "keccak.x1" ||
			!strings.HasPrefix(res.Name.String(), "KeccakX1/") || res.GetConfig("cpu-vendor") == "" {
			t.Errorf("%s: result %s has config align-entry=%q kernel=%q cpu-vendor=%q", path, res.Name,
				res.GetConfig("align-entry"), res.GetConfig("kernel"), res.GetConfig("cpu-vendor"))
		}
	}
	if err := r.Err(); err != nil || n < 3 {
		t.Errorf("%s: %d results, error %v; want at least one per arm", path, n, err)
	}
}

// runMasked runs this test binary as tunelab with TUNELAB_CPU=mask (which
// kernels/cpu reads once per process) and returns its combined output
// and exit status.
func runMasked(t *testing.T, mask string, args ...string) (string, int) {
	t.Helper()
	cmd, out := tunelabProc(t, []string{cpu.EnvCPU + "=" + mask}, args...)
	code := exitStatus(cmd.Wait())
	return out.String(), code
}

// maskedHost returns this host's CPU with mask applied, as the child
// process of runMasked sees it.
func maskedHost(mask string) *cpu.CPU {
	c := cpu.Host()
	c.Mask(mask)
	return c
}

// TestAlignDefaultOnEveryTier masks the host down to each lower tier and
// requires align to measure a base that tier runs, or to say that none
// runs and why.
func TestAlignDefaultOnEveryTier(t *testing.T) {
	if testing.Short() {
		t.Skip("runs align in child processes")
	}
	for _, mask := range []string{"avx512f=off", "avx2=off", "all=off"} {
		for _, kernel := range []string{"keccak.x4", "keccak.x1"} {
			if !hasOffsetSweep(kernel) {
				continue
			}
			out, code := runMasked(t, mask, "align", "--kernel", kernel, "--offsets", "0,4", "--budget", "20ms",
				"--samples", "3", "--sample-time", "100us", "-o", filepath.Join(t.TempDir(), "r.txt"))
			checkMaskedAlign(t, mask, kernel, out, code)
		}
	}
}

// checkMaskedAlign checks one run of TestAlignDefaultOnEveryTier.
func checkMaskedAlign(t *testing.T, mask, kernel, out string, code int) {
	t.Helper()
	host := maskedHost(mask)
	var runnable []string
	for _, b := range align.Bases(kernel) {
		if host.Has(b.Features...) {
			runnable = append(runnable, b.Name)
		}
	}
	if len(runnable) == 0 {
		if code != 1 || !strings.Contains(out, kernel+": no offset-sweep base runs on this host:") || !strings.Contains(out, " needs ") {
			t.Errorf("TUNELAB_CPU=%s align --kernel %s: exit %d, want 1 and why no base runs:\n%s", mask, kernel, code, out)
		}
		return
	}
	for _, b := range runnable {
		if code == 0 && strings.Contains(out, "align "+kernel+" "+b+",") {
			return
		}
	}
	t.Errorf("TUNELAB_CPU=%s align --kernel %s: exit %d, want a measurement of one of %q:\n%s", mask, kernel, code, runnable, out)
}

// TestAlignNamedUnrunnableNamesAlternative names an AVX-512 base with
// AVX-512 masked off: the error must list the missing features and name
// a base that runs.
func TestAlignNamedUnrunnableNamesAlternative(t *testing.T) {
	var wide string
	for _, b := range align.Bases("keccak.x4") {
		if slices.Contains(b.Features, "avx512f") {
			wide = b.Name
		}
	}
	if wide == "" {
		t.Skip("keccak.x4 has no AVX-512 offset-sweep base in this build")
	}
	out, code := runMasked(t, "avx512f=off", "align", "--kernel", "keccak.x4", "--variant", wide)
	want := "tunelab: align: keccak.x4 " + wide + " needs avx512f"
	alt := "; runnable base: isa=avx2/"
	if !maskedHost("avx512f=off").Has("avx2") {
		alt = "; no offset-sweep base of keccak.x4 runs here"
	}
	if code != 1 || !strings.HasPrefix(out, want) || !strings.Contains(out, "which this host lacks") || !strings.Contains(out, alt) {
		t.Errorf("exit %d, output %q; want exit 1, %q ... %q", code, out, want, alt)
	}
}
