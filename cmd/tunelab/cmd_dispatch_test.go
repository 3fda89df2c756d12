package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
)

// syntheticDispatch resolves plans for made-up kernels on the synthetic
// Zen 4 (avx512ifma masked) with a synthetic table: one from the entry
// measured with the host's exact features (with a size class naming an
// unknown variant; an entry measured without AVX-512 ranks below it, one
// measured with avx512ifma is skipped), one from the defaults (its entry
// needs avx512ifma), one from a legacy entry, one from the nearest
// measured CPU (another model measured with the host's features; one at
// x86-64-v3 does not qualify), one overridden and one whose override
// names a variant the CPU cannot run.
func syntheticDispatch(t *testing.T) dispatchState {
	host := syntheticCPU(t, "avx512ifma=off")
	full := syntheticCPU(t, "").FeatureList()
	noAVX512 := syntheticCPU(t, "avx512f=off").FeatureList()
	ch := func(max int, v string) dispatch.Choice { return dispatch.Choice{MaxSize: max, Variant: v} }
	entry := func(kernel string, features []string, choices ...dispatch.Choice) dispatch.Entry {
		return dispatch.Entry{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: kernel, Features: features, Choices: choices}
	}
	table := dispatch.Table{
		Entries: []dispatch.Entry{
			entry("mac.x", noAVX512, ch(0, "isa=avx2/unroll=4")),
			entry("mac.x", host.FeatureList(), ch(64, "isa=generic"), ch(1024, "isa=avx2/unroll=4"), ch(4096, "isa=nope"), ch(0, "isa=avx512/unroll=8")),
			entry("mac.x", full, ch(0, "isa=ifma")),
			entry("perm.x4", full, ch(0, "isa=avx512vl/rot=prol")),
			entry("mac.z", nil, ch(0, "isa=avx2/unroll=4")),
			{Vendor: cpu.VendorAMD, Family: 0x19, Model: 0x01, Uarch: "Zen 3", Kernel: "mac.n", Features: noAVX512, Choices: []dispatch.Choice{ch(0, "isa=avx2/unroll=4")}},
			{Vendor: cpu.VendorIntel, Family: 6, Model: 0xcf, Uarch: "Emerald Rapids", Kernel: "mac.n", Features: host.FeatureList(),
				Choices: []dispatch.Choice{ch(256, "isa=avx2/unroll=4"), ch(0, "isa=avx512/unroll=8")}},
		},
		Defaults: []dispatch.Default{
			{Level: cpu.LevelV3, Features: []string{"avx2"}, Kernel: "perm.x4", Choices: []dispatch.Choice{ch(0, "isa=avx2")}},
			{Level: cpu.LevelV4, Kernel: "perm.x4", Choices: []dispatch.Choice{ch(0, "isa=avx512vl/rot=prol")}},
		},
	}
	macCands := []dispatch.Candidate{{Name: "isa=generic"}, {Name: "isa=avx2/unroll=4", Features: []string{"avx2"}},
		{Name: "isa=avx512/unroll=8", Features: []string{"avx512f", "avx512vl"}}, {Name: "isa=ifma", Features: []string{"avx512ifma"}}}
	permCands := []dispatch.Candidate{{Name: "isa=generic"}, {Name: "isa=avx2", Features: []string{"avx2"}},
		{Name: "isa=avx512vl/rot=prol", Features: []string{"avx512f", "avx512vl"}}}
	return dispatchState{cpu: host, table: table, plans: []dispatch.KernelPlan{
		dispatch.Resolve(host, table, "", "mac.x", macCands),
		dispatch.Resolve(host, table, "", "perm.x4", permCands),
		dispatch.Resolve(host, table, "", "mac.z", macCands),
		dispatch.Resolve(host, table, "", "mac.n", macCands),
		dispatch.Resolve(host, table, "generic", "perm.x8", permCands),
		dispatch.Resolve(host, table, "isa=ifma", "mac.y", macCands),
	}, overrides: map[string]string{"perm.x8": "isa=generic", "mac.y": "isa=ifma", "no.such": "isa=generic"}}
}

func withDispatch(t *testing.T, s dispatchState) {
	saved := dispatchSource
	dispatchSource = func() dispatchState { return s }
	t.Cleanup(func() { dispatchSource = saved })
}

func TestDispatchGolden(t *testing.T) {
	withDispatch(t, syntheticDispatch(t))
	out, stderr, code := runCLI(t, "dispatch")
	if code != 0 {
		t.Fatalf("tunelab dispatch: exit %d, stderr %q", code, stderr)
	}
	golden(t, "dispatch_text.golden", out)
}

func TestDispatchJSONGolden(t *testing.T) {
	withDispatch(t, syntheticDispatch(t))
	out, stderr, code := runCLI(t, "dispatch", "--json")
	if code != 0 {
		t.Fatalf("tunelab dispatch --json: exit %d, stderr %q", code, stderr)
	}
	var r dispatchReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("tunelab dispatch --json is not JSON: %v\n%s", err, out)
	}
	reasons := map[string]string{}
	for _, k := range r.Kernels {
		reasons[k.Kernel] = k.Choices[len(k.Choices)-1].Reason
	}
	want := map[string]string{"mac.x": "table", "perm.x4": "default", "mac.z": "table", "mac.n": "nearest", "perm.x8": "override", "mac.y": "generic"}
	for k, w := range want {
		if reasons[k] != w {
			t.Errorf("kernel %s: last choice reason %q, want %q", k, reasons[k], w)
		}
	}
	tables := map[string]string{}
	for _, k := range r.Kernels {
		tables[k.Kernel] = k.Table
	}
	for k, w := range map[string]string{
		"mac.x":   "table AuthenticAMD/0x19/0x11 (Zen 4) [features exact]",
		"perm.x4": "entry for this model skipped: measured with avx512ifma, which this host lacks; using default x86-64-v4",
		"mac.z":   "table AuthenticAMD/0x19/0x11 (Zen 4) [features not recorded]: legacy entry",
		"mac.n":   "nearest measured CPU GenuineIntel/0x06/0xcf (Emerald Rapids) [other vendor or family; measured with this host's features that mac.n's tabled variants use (avx2 avx512f avx512vl)",
		"perm.x8": "",
	} {
		if !strings.HasPrefix(tables[k], w) || (w == "") != (tables[k] == "") {
			t.Errorf("kernel %s: table %q, want %q", k, tables[k], w)
		}
	}
	golden(t, "dispatch_json.golden", out)
}

// TestDispatchHost runs `tunelab dispatch` on the host: every recorded
// plan is shown.
func TestDispatchHost(t *testing.T) {
	out, stderr, code := runCLI(t, "dispatch")
	if code != 0 {
		t.Fatalf("tunelab dispatch: exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(out, cpu.Host().Key()) {
		t.Errorf("output lacks the host's dispatch key:\n%s", out)
	}
	for _, kp := range dispatch.Plans() {
		if !strings.Contains(out, "\n"+kp.Kernel+"  (") {
			t.Errorf("output lacks kernel %s:\n%s", kp.Kernel, out)
		}
	}
}

func TestDispatchUsageErrors(t *testing.T) {
	loo := fixtures + "loo/spr.txt"
	for _, args := range [][]string{{"dispatch", "keccak.x4"}, {"dispatch", "--kernel=x"}, {"dispatch", "--leave-one-out"},
		{"dispatch", "--leave-one-out", "--json", loo}, {"dispatch", "--leave-one-out", "--results", loo},
		{"dispatch", "--leave-one-out", "--rule", "best", loo}} {
		_, stderr, code := runCLI(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || !strings.HasPrefix(lines[len(lines)-1], "tunelab: ") {
			t.Errorf("tunelab %v: exit %d, stderr %q; want exit 2 ending in a one-line reason", args, code, stderr)
		}
	}
}

// TestDispatchLeaveOneOutGolden runs the leave-one-out evaluation on
// the reports package's fixtures (reports/testdata/loo): a table per
// CPU model, the rules compared, and exactly one summary line, last.
func TestDispatchLeaveOneOutGolden(t *testing.T) {
	var files []string
	for _, f := range []string{"zen4-metal.txt", "zen4-vm.txt", "zen4-raphael.txt", "spr.txt"} {
		files = append(files, fixtures+"loo/"+f)
	}
	out, stderr, code := runCLI(t, append([]string{"dispatch", "--leave-one-out"}, files...)...)
	if code != 0 {
		t.Fatalf("tunelab dispatch --leave-one-out: exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[len(lines)-1], "leave-one-out regret: geomean ") || strings.Count(out, "leave-one-out regret:") != 1 {
		t.Errorf("output does not end with exactly one summary line:\n%s", out)
	}
	golden(t, "dispatch_loo.golden", out)
	levelOut, _, _ := runCLI(t, append([]string{"dispatch", "--leave-one-out", "--rule", "level"}, files...)...)
	if !strings.HasPrefix(levelOut, "Leave-one-out (rule level)") || !strings.Contains(levelOut, "  nearest   geomean") {
		t.Errorf("--rule level: output does not list the level rule's picks and the nearest rule beside it:\n%s", levelOut)
	}
}

func TestDispatchSizes(t *testing.T) {
	tests := []struct {
		prev, max, n int
		want         string
	}{{0, 0, 1, "all"}, {0, 64, 3, "<= 64"}, {64, 1024, 3, "65..1024"}, {1024, 0, 3, "> 1024"}}
	for _, tt := range tests {
		if got := dispatchSizes(tt.prev, tt.max, tt.n); got != tt.want {
			t.Errorf("dispatchSizes(%d, %d, %d) = %q, want %q", tt.prev, tt.max, tt.n, got, tt.want)
		}
	}
}

// TestCompiledTableZen4VM resolves every planned kernel with a compiled
// Zen 4 entry measured with the AVX2-only VM's features on a Zen 4 whose
// hypervisor hides AVX-512 (the feature set of the sweep behind those
// entries): each uses its entry exactly. The same Zen 4 with AVX-512 masked
// (gfni still present) uses the entry of the masked sweep exactly where the
// fleet has one for that kernel, and otherwise the VM's as the closest subset.
func TestCompiledTableZen4VM(t *testing.T) {
	needCalibAsm(t)
	vmFeatures := strings.Split("sse3,ssse3,sse41,sse42,popcnt,cx16,lahf,avx,avx2,fma,f16c,lzcnt,movbe,osxsave,bmi1,bmi2,adx,aes,pclmulqdq,sha,vaes,vpclmulqdq", ",")
	vm := syntheticCPU(t, "")
	if err := vm.SetFeatures(vmFeatures...); err != nil {
		t.Fatal(err)
	}
	masked := syntheticCPU(t, "avx512f=off")
	vmEntries := zen4EntriesWith(vm)
	maskedEntries := zen4EntriesWith(masked)
	if len(vmEntries) == 0 {
		t.Fatal("the compiled table has no Zen 4 entries measured with the AVX2-only VM's features")
	}
	for _, kp := range dispatch.Plans() {
		if !vmEntries[kp.Kernel] {
			continue
		}
		delete(vmEntries, kp.Kernel)
		var cands []dispatch.Candidate
		for _, c := range kp.Candidates {
			cands = append(cands, c.Candidate)
		}
		maskedWant := "[features subset]: measured without gfni"
		if maskedEntries[kp.Kernel] {
			maskedWant = "[features exact]"
		}
		for on, want := range map[*cpu.CPU]string{vm: "[features exact]", masked: maskedWant} {
			got := dispatch.Resolve(on, dispatch.Compiled(), "", kp.Kernel, cands)
			if !strings.Contains(got.Table, "table AuthenticAMD/0x19/0x11 (Zen 4) "+want) {
				t.Errorf("%s on %v: table %q, want the Zen 4 entry %s", kp.Kernel, on.FeatureList(), got.Table, want)
			}
			for _, c := range got.Choices {
				if c.Reason != dispatch.ReasonTable {
					t.Errorf("%s: choice %s from %s, want the table", kp.Kernel, c.Variant, c.Reason)
				}
			}
		}
	}
	if len(vmEntries) > 0 {
		t.Errorf("kernels with Zen 4 entries that no package planned: %v", vmEntries)
	}
}

// zen4EntriesWith names the kernels whose compiled table has a measured
// (not legacy) Zen 4 entry with exactly c's feature set.
func zen4EntriesWith(c *cpu.CPU) map[string]bool {
	want, _ := cpu.SetOf(c.FeatureList()...)
	kernels := map[string]bool{}
	for _, e := range dispatch.Compiled().Entries {
		set, _ := cpu.SetOf(e.Features...)
		if cpu.DispatchKey(e.Vendor, e.Family, e.Model) == "AuthenticAMD/0x19/0x11" && set == want && !e.LegacyBase {
			kernels[e.Kernel] = true
		}
	}
	return kernels
}
