package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/kernels/dispatch"
)

// syntheticDispatch resolves plans for three made-up kernels on the
// synthetic Zen 4 with a synthetic table: one from the table (with a size
// class naming an unknown variant), one from the defaults, one overridden
// and one whose override names a variant the CPU cannot run.
func syntheticDispatch(t *testing.T) dispatchState {
	cpu := syntheticCPU(t, "avx512ifma=off")
	ch := func(max int, v string) dispatch.Choice { return dispatch.Choice{MaxSize: max, Variant: v} }
	table := dispatch.Table{
		Entries: []dispatch.Entry{{Vendor: dispatch.VendorAMD, Family: 0x19, Model: 0x11, Uarch: "Zen 4", Kernel: "mac.x",
			Choices: []dispatch.Choice{ch(64, "isa=generic"), ch(1024, "isa=avx2/unroll=4"), ch(4096, "isa=nope"), ch(0, "isa=avx512/unroll=8")}}},
		Defaults: []dispatch.Default{
			{Level: dispatch.LevelV3, Features: []string{"avx2"}, Kernel: "perm.x4", Choices: []dispatch.Choice{ch(0, "isa=avx2")}},
			{Level: dispatch.LevelV4, Kernel: "perm.x4", Choices: []dispatch.Choice{ch(0, "isa=avx512vl/rot=prol")}},
		},
	}
	macCands := []dispatch.Candidate{{Name: "isa=generic"}, {Name: "isa=avx2/unroll=4", Features: []string{"avx2"}},
		{Name: "isa=avx512/unroll=8", Features: []string{"avx512f", "avx512vl"}}, {Name: "isa=ifma", Features: []string{"avx512ifma"}}}
	permCands := []dispatch.Candidate{{Name: "isa=generic"}, {Name: "isa=avx2", Features: []string{"avx2"}},
		{Name: "isa=avx512vl/rot=prol", Features: []string{"avx512f", "avx512vl"}}}
	return dispatchState{cpu: cpu, table: table, plans: []dispatch.KernelPlan{
		dispatch.Resolve(cpu, table, "", "mac.x", macCands),
		dispatch.Resolve(cpu, table, "", "perm.x4", permCands),
		dispatch.Resolve(cpu, table, "generic", "perm.x8", permCands),
		dispatch.Resolve(cpu, table, "isa=ifma", "mac.y", macCands),
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
	want := map[string]string{"mac.x": "table", "perm.x4": "default", "perm.x8": "override", "mac.y": "generic"}
	for k, w := range want {
		if reasons[k] != w {
			t.Errorf("kernel %s: last choice reason %q, want %q", k, reasons[k], w)
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
	if !strings.Contains(out, dispatch.Host().Key()) {
		t.Errorf("output lacks the host's dispatch key:\n%s", out)
	}
	for _, kp := range dispatch.Plans() {
		if !strings.Contains(out, "\n"+kp.Kernel+"  (") {
			t.Errorf("output lacks kernel %s:\n%s", kp.Kernel, out)
		}
	}
}

func TestDispatchUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"dispatch", "keccak.x4"}, {"dispatch", "--kernel=x"}} {
		_, stderr, code := runCLI(t, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || !strings.HasPrefix(lines[len(lines)-1], "tunelab: ") {
			t.Errorf("tunelab %v: exit %d, stderr %q; want exit 2 ending in a one-line reason", args, code, stderr)
		}
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
