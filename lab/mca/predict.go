package mca

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
)

// DefaultMCPUs are the CPU models predicted when none are named.
var DefaultMCPUs = []string{"znver3", "znver4", "znver5", "skylake-avx512", "icelake-server", "sapphirerapids", "alderlake"}

// Feature lists shared by CPU models in mcpuFeatures.
const (
	avx2Base   = "sse41 popcnt avx avx2 bmi1 bmi2 aes pclmulqdq"
	avx512Base = avx2Base + " adx avx512f avx512bw avx512vl avx512dq avx512cd"
	iceLake    = avx512Base + " sha avx512vbmi avx512vbmi2 avx512ifma avx512vnni avx512bitalg avx512vpopcntdq vaes vpclmulqdq gfni"
	hybrid     = avx2Base + " adx sha vaes vpclmulqdq gfni"
)

// mcpuFeatures lists, per llvm-mca CPU model, the kernel-relevant features
// that model has (names of kernels/cpu): every model MCPUForUarch
// returns and the common server ones. Variants needing more are not
// predicted for it: llvm-mca rejects or mis-models instructions a model
// lacks. Models not listed are not checked.
var mcpuFeatures = map[string]string{
	"haswell":        avx2Base,
	"broadwell":      avx2Base + " adx",
	"skylake":        avx2Base + " adx",
	"alderlake":      hybrid,
	"raptorlake":     hybrid,
	"meteorlake":     hybrid,
	"arrowlake":      hybrid,
	"lunarlake":      hybrid,
	"znver1":         avx2Base + " adx sha",
	"znver2":         avx2Base + " adx sha",
	"znver3":         avx2Base + " adx sha vaes vpclmulqdq",
	"skylake-avx512": avx512Base,
	"cascadelake":    avx512Base + " avx512vnni",
	"icelake-client": iceLake,
	"icelake-server": iceLake,
	"tigerlake":      iceLake,
	"sapphirerapids": iceLake + " avx512bf16",
	"emeraldrapids":  iceLake + " avx512bf16",
	"graniterapids":  iceLake + " avx512bf16",
	"znver4":         iceLake + " avx512bf16",
	"znver5":         iceLake + " avx512bf16",
}

// missingFeature returns the first feature of v that mcpu lacks, or "".
func missingFeature(v *variant.Variant, mcpu string) string {
	for _, f := range v.Features {
		if !mcpuHas(mcpu, f) {
			return f
		}
	}
	return ""
}

// mcpuHas reports whether CPU model mcpu has feature f; true for models
// not in mcpuFeatures (llvm-mca itself rejects what they lack).
func mcpuHas(mcpu, f string) bool {
	have, known := mcpuFeatures[mcpu]
	return !known || slices.Contains(strings.Fields(have), f)
}

// MCPUForUarch maps a kernels/cpu microarchitecture name to the
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
	// Warning says where the loop's code disagrees with the variant's
	// registered features (an AVX-512 instruction in a variant that does
	// not declare avx512f).
	Warning string `json:"warning,omitempty"`
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
	if !v.HasHotCode() {
		r.Skipped = "no generated loop (Go code, or generated code with neither a loop label nor a count of runs per op)"
		return r
	}
	body, err := extractVariant(ctx, v)
	if err != nil {
		r.Skipped = err.Error()
		return r
	}
	r.Loop, r.Offset, r.BodyBytes = body.Loop, body.Loop.Offset(), body.Loop.Size()
	r.Warning = undeclaredEVEX(v, body)
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

// undeclaredEVEX describes the body's first AVX-512 instruction if v does
// not declare avx512f, else returns "".
func undeclaredEVEX(v *variant.Variant, b *Body) string {
	in := b.FirstEVEX()
	if in == nil || slices.Contains(v.Features, "avx512f") {
		return ""
	}
	return fmt.Sprintf("loop has AVX-512 instruction %q at %#x but the variant declares only [%s]: its registered features are incomplete",
		in.Text, in.Addr, strings.Join(v.Features, " "))
}

// unmodelled says why mcpu cannot be given the body: a feature of v it
// lacks, or an EVEX instruction when it lacks avx512f; "" if it can.
func unmodelled(v *variant.Variant, b *Body, mcpu string) string {
	if f := missingFeature(v, mcpu); f != "" {
		return mcpu + " lacks " + f
	}
	if in := b.FirstEVEX(); in != nil && !mcpuHas(mcpu, "avx512f") {
		return fmt.Sprintf("%s lacks avx512f, which the loop's %q needs", mcpu, in.Text)
	}
	return ""
}

func predictModel(ctx context.Context, bin string, v *variant.Variant, b *Body, mcpu string, trips float64) *ModelPrediction {
	mp := &ModelPrediction{MCPU: mcpu}
	if why := unmodelled(v, b, mcpu); why != "" {
		mp.Skipped = why
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
