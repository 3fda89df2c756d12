//go:build ignore

// genfleet writes the result files of a fabricated fleet sweep, one per
// job as deploy/ runs them (<host>-<index>.txt): a Zen 4 on bare metal
// (AVX-512), a Zen 4 in a VM that hides AVX-512 (same dispatch key, other
// feature set, no AVX-512 variants measured), and two Sapphire Rapids
// nodes of one pool (same model and features, two runs). They measure
// the reports test kernels test.fixed and test.sized (sizes 64 and 4096)
// with a segment line and the decision-rule config, as a sweep writes
// them. Values follow simple cost models with deterministic jitter of
// about ±0.3%.
//
//	cd reports/testdata/fleet && go run genfleet.go
package main

import (
	"fmt"
	"os"
	"strings"
)

// A host is one job's machine.
type host struct {
	file, vendor, family, model, uarch, features, level, runID string
	tscGHz                                                     float64
	avx512                                                     bool
	cost                                                       string  // cost model: "zen4" or "spr"
	slowdown                                                   float64 // scales every cost of the host
}

const (
	zen4Features = "adx,aes,avx,avx2,avx512bw,avx512cd,avx512dq,avx512f,avx512vl,bmi1,bmi2,pclmulqdq,sse41"
	vmFeatures   = "adx,aes,avx,avx2,bmi1,bmi2,pclmulqdq,sse41"
	sprFeatures  = zen4Features
	rule         = "tunelab-winner/2 alpha=0.05 threshold=1% min-samples=6 candidates=not-external,not-offset-sweep,not-eliminated,not-excluded tie=simpler"
)

var hosts = []host{
	{"zen4-metal-0.txt", "AuthenticAMD", "0x19", "0x11", "Zen 4", zen4Features, "x86-64-v4", "f1ee700000000000", 2.6, true, "zen4", 1},
	{"zen4-vm-1.txt", "AuthenticAMD", "0x19", "0x11", "Zen 4", vmFeatures, "x86-64-v3", "f1ee700000000001", 2.6, false, "zen4", 1.01},
	{"spr-a-2.txt", "GenuineIntel", "0x6", "0x8f", "Sapphire Rapids", sprFeatures, "x86-64-v4", "f1ee700000000002", 2.0, true, "spr", 1},
	{"spr-b-3.txt", "GenuineIntel", "0x6", "0x8f", "Sapphire Rapids", sprFeatures, "x86-64-v4", "f1ee700000000003", 2.0, true, "spr", 1.002},
}

// fixed lists test.fixed variants with their median ns per cost model.
var fixed = []struct {
	name      string
	avx512    bool
	zen4, spr float64
}{
	{"isa=generic", false, 1000, 900},
	{"isa=avx2/unroll=1/align=64", false, 196, 168},
	{"isa=avx2/unroll=2/align=64", false, 176.4, 150},
	{"isa=avx512vl/unroll=2/align=64", true, 137.2, 192},
}

// sized is test.sized: ns = a*size + b per variant and cost model.
var sized = []struct {
	name   string
	avx512 bool
	za, zb float64
	sa, sb float64
}{
	{"isa=generic", false, 2, 20, 1.8, 20},
	{"isa=scalar", false, 1, 10, 0.9, 10},
	{"isa=avx2", false, 0.5, 60, 0.45, 30},
	{"isa=avx512vl", true, 0.3, 120, 0.4, 200},
}

func header(b *strings.Builder, h host) {
	fmt.Fprintf(b, "# tunelab: segment %s 1\n", h.runID)
	fmt.Fprintf(b, "Unit tsc-cycles/op better=lower assume=nothing\n")
	fmt.Fprintf(b, "goos: linux\ngoarch: amd64\npkg: github.com/tunelab/tunelab/harness\n")
	fmt.Fprintf(b, "cpu: fabricated %s\ncpu-vendor: %s\ncpu-family: %s\ncpu-model: %s\ncpu-stepping: 1\n", h.uarch, h.vendor, h.family, h.model)
	fmt.Fprintf(b, "uarch: %s\ndispatch-key: %s/%s/%s\nfeatures: %s\nfeature-level: %s\n", h.uarch, h.vendor, h.family, h.model, h.features, h.level)
	fmt.Fprintf(b, "go: go1.26.8\ntunelab: v0.0.0 fixture\nrun-id: %s\ndate: 2026-12-01T08:00:00Z\ntsc-hz: %.0f\n", h.runID, h.tscGHz*1e9)
	fmt.Fprintf(b, "decision-rule: %s\n", rule)
}

// jitter returns a deterministic factor in [0.997, 1.003].
func jitter(seed string, i int) float64 {
	h := uint32(2166136261)
	for _, c := range seed + fmt.Sprint(i) {
		h = (h ^ uint32(c)) * 16777619
	}
	return 1 + 0.006*(float64(h%1000)/999-0.5)
}

func results(b *strings.Builder, h host, bench, name string, ns float64) {
	for i := 0; i < 10; i++ {
		v := ns * h.slowdown * jitter(h.file+name, i)
		fmt.Fprintf(b, "Benchmark%s/%s 100000 %.2f ns/op %.1f tsc-cycles/op\n", bench, name, v, v*h.tscGHz)
	}
}

func main() {
	for _, h := range hosts {
		var b strings.Builder
		header(&b, h)
		fmt.Fprintf(&b, "kernel: test.fixed\n")
		for _, v := range fixed {
			if v.avx512 && !h.avx512 {
				continue // a sweep skips variants the host cannot run
			}
			ns := v.zen4
			if h.cost == "spr" {
				ns = v.spr
			}
			results(&b, h, "TestFixed", v.name, ns)
		}
		fmt.Fprintf(&b, "# tunelab: done test.fixed\nkernel: test.sized\n")
		for _, size := range []int{64, 4096} {
			for _, v := range sized {
				if v.avx512 && !h.avx512 {
					continue
				}
				a, c := v.za, v.zb
				if h.cost == "spr" {
					a, c = v.sa, v.sb
				}
				results(&b, h, "TestSized", fmt.Sprintf("%s/size=%d", v.name, size), a*float64(size)+c)
			}
			fmt.Fprintf(&b, "# tunelab: done test.sized/size=%d\n", size)
		}
		if err := os.WriteFile(h.file, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}
