//go:build amd64

package mca

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/lab/looptest"
)

func needObjdump(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath(ObjdumpPath); err != nil {
		t.Skip("GNU objdump not installed")
	}
}

func loopBody(t *testing.T, c looptest.Case) *Body {
	t.Helper()
	c.Run(1)
	l, err := asmmap.Locate(c.Symbol, "loop")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Extract(context.Background(), l)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExtractYieldsExactlyTheLoopBody(t *testing.T) {
	needObjdump(t)
	for _, c := range looptest.Cases {
		b := loopBody(t, c)
		var ops []string
		for _, in := range b.Instrs {
			ops = append(ops, strings.Fields(in.Text)[0])
		}
		want := "add add add add add add add add dec jne"
		if got := strings.Join(ops, " "); got != want {
			t.Errorf("%s: extracted %q, want %q\n%s", c.Symbol, got, want, b.Asm())
		}
		if last := b.Instrs[len(b.Instrs)-1].Text; last != "jne loop" {
			t.Errorf("%s: back-edge %q not rewritten to the loop label", c.Symbol, last)
		}
		if len(b.Instrs) != b.Loop.SourceInstrs {
			t.Errorf("%s: %d instructions extracted, the .s has %d from head to back-edge", c.Symbol, len(b.Instrs), b.Loop.SourceInstrs)
		}
		if b.Instrs[0].Addr != b.Loop.Head {
			t.Errorf("%s: first instruction at %#x, want head %#x", c.Symbol, b.Instrs[0].Addr, b.Loop.Head)
		}
	}
}

func TestAnalyzeDependentChainIsOneCyclePerInstruction(t *testing.T) {
	needObjdump(t)
	bin, err := Find()
	if err != nil {
		t.Skip(err)
	}
	b := loopBody(t, looptest.Cases[0])
	for _, mcpu := range []string{"znver4", "skylake-avx512"} {
		p, err := Analyze(context.Background(), bin, b.Asm(), mcpu)
		if err != nil {
			t.Fatal(err)
		}
		// Eight dependent single-cycle ADDQs: about 8 cycles per iteration.
		if p.CyclesPerIter < 7.5 || p.CyclesPerIter > 9.5 {
			t.Errorf("%s: %.2f cycles/iter for an 8-long dependent ADDQ chain, want about 8", mcpu, p.CyclesPerIter)
		}
		if !strings.HasPrefix(p.Bottleneck, "dependency") {
			t.Errorf("%s: bottleneck %q, want a dependency chain", mcpu, p.Bottleneck)
		}
		if p.Instructions != 10 {
			t.Errorf("%s: %d instructions per iteration, want 10", mcpu, p.Instructions)
		}
	}
}

func TestAnalyzeFlagsUnsupportedInstructions(t *testing.T) {
	bin, err := Find()
	if err != nil {
		t.Skip(err)
	}
	asm := "loop:\n\tvpternlogq $0x96, %zmm1, %zmm2, %zmm3\n\taddq $1, %rax\n\tdecq %rcx\n\tjne loop\n"
	p, err := Analyze(context.Background(), bin, asm, "znver3")
	if err != nil {
		t.Fatalf("Analyze on znver3 (no AVX-512): %v", err)
	}
	if len(p.Unsupported) == 0 {
		t.Errorf("znver3 modelled vpternlogq on zmm; want it flagged as unsupported (got %+v)", p)
	}
}

func TestRewriteJump(t *testing.T) {
	if got := rewriteJump("jne 0x1000", 0x1000); got != "jne loop" {
		t.Errorf("rewriteJump = %q", got)
	}
	if got := rewriteJump("jne 0x1040", 0x1000); got != "jne 0x1040" {
		t.Errorf("rewriteJump of another target = %q", got)
	}
	if got := rewriteJump("add $0x3,%rcx", 0x1000); got != "add $0x3,%rcx" {
		t.Errorf("rewriteJump of a non-jump = %q", got)
	}
}

func TestReadMeasuredAndReconcile(t *testing.T) {
	const file = `cpu-vendor: GenuineIntel
cpu-family: 0x6
cpu-model: 0xcf
uarch: Emerald Rapids
dispatch-key: GenuineIntel/0x06/0xcf
features: avx2
kernel: calib
BenchmarkCalib/isa=x/len=8 1000 10 ns/op 80 tsc-cycles/op
BenchmarkCalib/isa=x/len=8 1000 11 ns/op 84 tsc-cycles/op
BenchmarkCalib/isa=x/len=8 1000 12 ns/op 88 tsc-cycles/op
kernel: other
BenchmarkOther/isa=y/size=64 1000 12 ns/op 500 tsc-cycles/op
`
	path := filepath.Join(t.TempDir(), "r.txt")
	if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMeasured(path, "AuthenticAMD/0x19/0x11"); err == nil {
		t.Error("ReadMeasured found results of a CPU model the file does not have")
	}
	ms, err := ReadMeasured(path, "GenuineIntel/0x06/0xcf")
	if err != nil {
		t.Fatal(err)
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Kernel < ms[j].Kernel })
	if len(ms) != 2 || ms[0].Kernel != "calib" || ms[0].Variant != "isa=x/len=8" || ms[0].CyclesPerOp != 84 || ms[0].Samples != 3 {
		t.Fatalf("ReadMeasured = %+v", ms)
	}
	if ms[1].Size != 64 || ms[1].Variant != "isa=y" {
		t.Fatalf("size not split from name: %+v", ms[1])
	}
	rs := []*Result{
		{Kernel: "calib", Variant: "isa=x/len=8", TripsPerOp: 10,
			Predictions: []*ModelPrediction{{MCPU: "znver4", Prediction: &Prediction{CyclesPerIter: 8}}}},
		{Kernel: "other", Variant: "isa=y", TripsPerOp: 4,
			Predictions: []*ModelPrediction{{MCPU: "znver4", Prediction: &Prediction{CyclesPerIter: 50}}}},
	}
	cs := Reconcile(rs, ms, "znver4")
	if len(cs) != 2 {
		t.Fatalf("Reconcile = %+v", cs)
	}
	if cs[0].MeasuredPerIter != 8.4 || cs[0].Flagged {
		t.Errorf("calib: measured %.2f/iter flagged=%v, want 8.4 unflagged", cs[0].MeasuredPerIter, cs[0].Flagged)
	}
	if cs[1].MeasuredPerIter != 125 || !cs[1].Flagged {
		t.Errorf("other: measured %.2f/iter flagged=%v, want 125 flagged", cs[1].MeasuredPerIter, cs[1].Flagged)
	}
}

func TestParseJSONSkipsTotalsRow(t *testing.T) {
	// llvm-mca-19 --json for "vpaddq zmm; decq; jne" on znver4, trimmed.
	const out = `{"CodeRegions":[{"SummaryView":{"BlockRThroughput":1,"DispatchWidth":6,"IPC":2.9,"Instructions":300,"Iterations":100,"TotalCycles":103,"TotaluOps":300},
"ResourcePressureView":{"ResourcePressureInfo":[
{"InstructionIndex":0,"ResourceIndex":8,"ResourceUsage":0.5},{"InstructionIndex":0,"ResourceIndex":9,"ResourceUsage":0.5},
{"InstructionIndex":1,"ResourceIndex":4,"ResourceUsage":0.33},{"InstructionIndex":2,"ResourceIndex":3,"ResourceUsage":0.5},
{"InstructionIndex":3,"ResourceIndex":8,"ResourceUsage":0.5},{"InstructionIndex":3,"ResourceIndex":9,"ResourceUsage":0.5}]}}],
"TargetInfo":{"CPUName":"znver4","Resources":["A0","A1","A2","ALU0","ALU1","ALU2","ALU3","BRU","FP0","FP1"]}}`
	p, err := parseJSON([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	if p.Instructions != 3 || p.CyclesPerIter != 1.03 {
		t.Errorf("parsed %d instructions, %.2f cycles/iter; want 3 and 1.03", p.Instructions, p.CyclesPerIter)
	}
	// FP0 carries 0.5 per iteration; counting the totals row would double it.
	if want := "dependency chain (latency-bound)"; p.Bottleneck != want {
		t.Errorf("bottleneck %q, want %q (resource pressure double-counted?)", p.Bottleneck, want)
	}
}
