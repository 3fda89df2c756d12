package mca

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/tunelab/tunelab/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
)

// DefaultMCPUs are the CPU models predicted when none are named.
var DefaultMCPUs = []string{"znver3", "znver4", "znver5", "skylake-avx512", "icelake-server", "sapphirerapids", "alderlake"}

// mcpuFeatures lists, per llvm-mca CPU model, the kernel-relevant features
// that model has (names of kernels/dispatch). Variants needing more are not
// predicted for it: llvm-mca rejects or mis-models instructions a model lacks.
var mcpuFeatures = map[string]string{
	"haswell":        "sse41 avx avx2 bmi1 bmi2 aes pclmulqdq",
	"skylake":        "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq",
	"alderlake":      "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq sha vaes vpclmulqdq gfni",
	"znver2":         "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq sha",
	"znver3":         "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq sha vaes vpclmulqdq",
	"skylake-avx512": "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq avx512f avx512bw avx512vl avx512dq avx512cd",
	"cascadelake":    "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq avx512f avx512bw avx512vl avx512dq avx512cd avx512vnni",
	"icelake-server": "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq sha avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni vaes vpclmulqdq gfni",
	"sapphirerapids": "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq sha avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni vaes vpclmulqdq gfni",
	"znver4":         "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq sha avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni vaes vpclmulqdq gfni",
	"znver5":         "sse41 avx avx2 bmi1 bmi2 adx aes pclmulqdq sha avx512f avx512bw avx512vl avx512dq avx512cd avx512vbmi avx512vbmi2 avx512ifma avx512vnni vaes vpclmulqdq gfni",
}

// missingFeature returns the first feature of v that mcpu lacks, or "".
func missingFeature(v *variant.Variant, mcpu string) string {
	have, known := mcpuFeatures[mcpu]
	if !known {
		return ""
	}
	set := strings.Fields(have)
	for _, f := range v.Features {
		found := false
		for _, h := range set {
			found = found || h == f
		}
		if !found {
			return f
		}
	}
	return ""
}

// MCPUForUarch maps a kernels/dispatch microarchitecture name to the
// llvm-mca CPU model that models it, or "".
func MCPUForUarch(uarch string) string {
	m := map[string]string{
		"Haswell": "haswell", "Broadwell": "broadwell", "Skylake": "skylake",
		"Skylake-SP": "skylake-avx512", "Skylake-X": "skylake-avx512", "Cascade Lake": "cascadelake",
		"Ice Lake": "icelake-client", "Ice Lake-SP": "icelake-server", "Tiger Lake": "tigerlake",
		"Alder Lake": "alderlake", "Raptor Lake": "raptorlake", "Sapphire Rapids": "sapphirerapids",
		"Emerald Rapids": "emeraldrapids", "Granite Rapids": "graniterapids", "Meteor Lake": "meteorlake",
		"Arrow Lake": "arrowlake", "Lunar Lake": "lunarlake",
		"Zen": "znver1", "Zen+": "znver1", "Zen 2": "znver2", "Zen 3": "znver3", "Zen 4": "znver4", "Zen 5": "znver5",
	}
	for name, mcpu := range m {
		if uarch == name || strings.HasPrefix(uarch, name+" (") {
			return mcpu
		}
	}
	return ""
}

// A Result is the prediction for one variant on each requested CPU model.
type Result struct {
	Kernel, Variant string
	Loop            *asmmap.Loop `json:"-"`
	Offset          int          `json:"loop_offset"`
	BodyBytes       int          `json:"loop_bytes"`
	TripsPerOp      float64      `json:"trips_per_op,omitempty"` // 0: unknown
	Predictions     []*ModelPrediction
	Skipped         string `json:"skipped,omitempty"` // why the variant was not analysed at all
}

// A ModelPrediction is a Prediction plus per-op figures, or why it is absent.
type ModelPrediction struct {
	*Prediction
	MCPU        string  `json:"mcpu"`
	CyclesPerOp float64 `json:"cycles_per_op,omitempty"`
	Skipped     string  `json:"skipped,omitempty"`
}

// For returns the prediction for mcpu, or nil.
func (r *Result) For(mcpu string) *ModelPrediction {
	for _, p := range r.Predictions {
		if p.MCPU == mcpu && p.Prediction != nil {
			return p
		}
	}
	return nil
}

// PredictAll analyses every variant's loop on every mcpu. size is the
// input size used to convert loop iterations to ops.
func PredictAll(ctx context.Context, bin string, vs []*variant.Variant, mcpus []string, size int) []*Result {
	var out []*Result
	for _, v := range vs {
		out = append(out, predictOne(ctx, bin, v, mcpus, size))
	}
	return out
}

func predictOne(ctx context.Context, bin string, v *variant.Variant, mcpus []string, size int) *Result {
	r := &Result{Kernel: v.Kernel, Variant: v.Name}
	if v.Symbol == "" || v.LoopLabel == "" {
		r.Skipped = "no generated loop (Go code or a variant without a loop label)"
		return r
	}
	body, err := extractVariant(ctx, v)
	if err != nil {
		r.Skipped = err.Error()
		return r
	}
	r.Loop, r.Offset, r.BodyBytes = body.Loop, body.Loop.Offset(), body.Loop.Size()
	if v.LoopTrips != nil {
		r.TripsPerOp = v.LoopTrips(size)
	}
	for _, mcpu := range mcpus {
		r.Predictions = append(r.Predictions, predictModel(ctx, bin, v, body, mcpu, r.TripsPerOp))
	}
	return r
}

func extractVariant(ctx context.Context, v *variant.Variant) (*Body, error) {
	l, err := asmmap.Locate(v.Symbol, v.LoopLabel)
	if err != nil {
		return nil, err
	}
	b, err := Extract(ctx, l)
	if err != nil {
		return nil, err
	}
	if len(b.Instrs) != l.SourceInstrs {
		return nil, fmt.Errorf("%s: extracted %d instructions but %s has %d from line %d to the back-edge at line %d",
			v.Symbol, len(b.Instrs), l.File, l.SourceInstrs, l.HeadLine, l.BackLine)
	}
	return b, nil
}

func predictModel(ctx context.Context, bin string, v *variant.Variant, b *Body, mcpu string, trips float64) *ModelPrediction {
	mp := &ModelPrediction{MCPU: mcpu}
	if f := missingFeature(v, mcpu); f != "" {
		mp.Skipped = mcpu + " lacks " + f
		return mp
	}
	p, err := Analyze(ctx, bin, b.Asm(), mcpu)
	if err != nil {
		mp.Skipped = err.Error()
		return mp
	}
	mp.Prediction = p
	if trips > 0 {
		mp.CyclesPerOp = p.CyclesPerIter * trips
	}
	return mp
}

// A Ranked entry is one variant's place on one CPU model.
type Ranked struct {
	Rank     int
	Result   *Result
	Pred     *ModelPrediction
	Relative float64 // cost relative to the best (1 = best)
}

// Rank orders the results predicted for mcpu by cycles per op where every
// ranked variant has it, else by cycles per loop iteration.
func Rank(rs []*Result, mcpu string) []Ranked {
	var out []Ranked
	perOp := true
	for _, r := range rs {
		if p := r.For(mcpu); p != nil {
			out = append(out, Ranked{Result: r, Pred: p})
			perOp = perOp && p.CyclesPerOp > 0
		}
	}
	cost := func(x Ranked) float64 {
		if perOp {
			return x.Pred.CyclesPerOp
		}
		return x.Pred.CyclesPerIter
	}
	sort.SliceStable(out, func(i, j int) bool { return cost(out[i]) < cost(out[j]) })
	for i := range out {
		out[i].Rank = i + 1
		if best := cost(out[0]); best > 0 {
			out[i].Relative = cost(out[i]) / best
		}
	}
	return out
}

// Cost returns the ranking figure of p and its unit.
func Cost(p *ModelPrediction) (float64, string) {
	if p.CyclesPerOp > 0 {
		return p.CyclesPerOp, "cycles/op"
	}
	return p.CyclesPerIter, "cycles/iter"
}

// String summarises a prediction on one line.
func (p *ModelPrediction) String() string {
	if p.Prediction == nil {
		return "skipped: " + p.Skipped
	}
	c, unit := Cost(p)
	return fmt.Sprintf("%.1f %s, %.2f IPC, %s", c, unit, p.IPC, p.Bottleneck)
}
