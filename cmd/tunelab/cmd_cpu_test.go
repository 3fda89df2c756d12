package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
)

// syntheticCPU is a fixed Zen 4 (Genoa) identity, so goldens do not depend
// on the host; mask is applied in TUNELAB_CPU syntax.
func syntheticCPU(t *testing.T, mask string) *cpu.CPU {
	t.Helper()
	c := &cpu.CPU{
		Arch: "amd64", Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Stepping: 1,
		Signature: 0x00a10f11, Brand: "AMD EPYC 9R14 96-Core Processor",
		LogicalCores: 4, PhysicalCores: 2, ThreadsPerCore: 2,
		Cache:      cpu.Cache{L1I: 32 << 10, L1D: 32 << 10, L2: 1 << 20, L3: 32 << 20},
		Hypervisor: "KVMKVMKVM",
	}
	err := c.SetFeatures("sse3", "ssse3", "sse41", "sse42", "popcnt", "cx16", "lahf",
		"avx", "avx2", "fma", "f16c", "lzcnt", "movbe", "osxsave", "bmi1", "bmi2", "adx",
		"aes", "pclmulqdq", "sha", "avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd",
		"avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512vnni", "avx512bitalg",
		"avx512vpopcntdq", "avx512bf16", "vaes", "vpclmulqdq", "gfni")
	if err != nil {
		t.Fatal(err)
	}
	if w := c.Mask(mask); len(w) > 0 {
		t.Fatalf("mask %q: %q", mask, w)
	}
	return c
}

// withCPU makes `tunelab cpu` describe c for the rest of the test.
func withCPU(t *testing.T, c *cpu.CPU) {
	saved := cpuSource
	cpuSource = func() *cpu.CPU { return c }
	t.Cleanup(func() { cpuSource = saved })
}

func TestCPUGolden(t *testing.T) {
	for _, tt := range []struct{ golden, mask string }{
		{"cpu_text.golden", ""},
		{"cpu_masked.golden", "avx512f=off,vaes=off"},
	} {
		withCPU(t, syntheticCPU(t, tt.mask))
		out, stderr, code := runCLI(t, "cpu")
		if code != 0 {
			t.Fatalf("tunelab cpu (mask %q): exit %d, stderr %q", tt.mask, code, stderr)
		}
		golden(t, tt.golden, out)
	}
}

func TestCPUJSONGolden(t *testing.T) {
	withCPU(t, syntheticCPU(t, ""))
	out, stderr, code := runCLI(t, "cpu", "--json")
	if code != 0 {
		t.Fatalf("tunelab cpu --json: exit %d, stderr %q", code, stderr)
	}
	var info cpuInfo
	if err := json.Unmarshal([]byte(out), &info); err != nil {
		t.Fatalf("tunelab cpu --json is not JSON: %v\n%s", err, out)
	}
	if info.Uarch != "Zen 4" || info.DispatchKey != "AuthenticAMD/0x19/0x11" || info.FeatureLevel != "x86-64-v4" {
		t.Errorf("tunelab cpu --json: uarch %q key %q level %q, want Zen 4, AuthenticAMD/0x19/0x11, x86-64-v4",
			info.Uarch, info.DispatchKey, info.FeatureLevel)
	}
	golden(t, "cpu_json.golden", out)
}

// TestCPUHost runs `tunelab cpu` on the real host: it must name a
// microarchitecture line and the host's dispatch key.
func TestCPUHost(t *testing.T) {
	out, stderr, code := runCLI(t, "cpu")
	if code != 0 {
		t.Fatalf("tunelab cpu: exit %d, stderr %q", code, stderr)
	}
	if key := cpu.Host().Key(); !strings.Contains(out, "dispatch key    "+key+"\n") {
		t.Errorf("tunelab cpu output lacks dispatch key %s:\n%s", key, out)
	}
}

func TestCPUUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"cpu", "extra"}, {"cpu", "--bogus"}} {
		_, stderr, code := runCLI(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || !strings.HasPrefix(lines[len(lines)-1], "tunelab: ") {
			t.Errorf("tunelab %v: exit %d, stderr %q; want exit 2 ending in a one-line reason", args, code, stderr)
		}
	}
	if _, _, code := runCLI(t, "cpu", "-h"); code != 0 {
		t.Errorf("tunelab cpu -h: exit %d, want 0", code)
	}
}

func TestCPUCacheSize(t *testing.T) {
	for n, want := range map[int]string{-1: "?", 0: "?", 48 << 10: "48 KiB", 2 << 20: "2 MiB", 1000: "1000 B", 1536 << 10: "1536 KiB"} {
		if got := cpuCacheSize(n); got != want {
			t.Errorf("cpuCacheSize(%d) = %q, want %q", n, got, want)
		}
	}
}
