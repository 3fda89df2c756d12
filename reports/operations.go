package reports

import (
	"fmt"
	"math"
	"strings"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
)

// An OperationEffect puts one composition knob's effect on a whole
// operation (e.g. mlkem768.keygen, ways=2 against the winner's ways=4,
// other knobs as the winner's) next to the same choice's effect on the
// kernel it sets (shake128.many at the operation's stream count).
type OperationEffect struct {
	Model                *Model
	Operation, Knob      string
	Value, WinnerValue   string
	Op                   stats.Delta // the operation with Value relative to the winner
	Kernel               string
	KernelSize           int
	KernelEffect         stats.Delta
	HasKernel, HasOpData bool
}

// String formats the effect: "ways=2 vs 4: kernel shake128.many (8
// streams) +41.0% ±2.1%, mlkem768.keygen +6.2% ±0.7%, p<0.001".
func (e *OperationEffect) String() string {
	kernel := "kernel not measured"
	if e.HasKernel {
		where := e.Kernel
		if e.KernelSize > 0 {
			where = fmt.Sprintf("%s (size %d)", e.Kernel, e.KernelSize)
		}
		kernel = fmt.Sprintf("kernel %s %s %s", where, stats.FormatPct(e.KernelEffect.Pct), stats.FormatPM(e.KernelEffect.PM))
	}
	return fmt.Sprintf("%s=%s vs %s: %s, %s %s", e.Knob, e.Value, e.WinnerValue, kernel, e.Operation, e.Op)
}

// operationStreams is the number of SHAKE128 streams of each operation's
// matrix expansion (ML-KEM: k², ML-DSA: k·l), which picks the
// many-stream kernel size its ways knob is compared at.
var operationStreams = map[string]int{
	"mlkem512": 4, "mlkem768": 9, "mlkem1024": 16,
	"mldsa44": 16, "mldsa65": 30, "mldsa87": 56,
}

// OperationEffects computes, for every whole-operation group with a winner,
// the effect of each other value of its ways and ntt knobs.
func (r *Report) OperationEffects() []*OperationEffect {
	var out []*OperationEffect
	for _, g := range r.Groups {
		streams, ok := operationStreams[strings.Split(g.Kernel, ".")[0]]
		if !ok || g.Decision.Winner == "" || !strings.Contains(g.Decision.Winner, "ways=") {
			continue
		}
		w := RowOf(g, g.Decision.Winner)
		for _, row := range g.Rows {
			if key, val, ok := differsInOne(g.Decision.Winner, row.Variant); ok {
				e := &OperationEffect{Model: g.Model, Operation: g.Kernel, Knob: key, Value: val,
					WinnerValue: resultfile.Knob(g.Decision.Winner, key), Op: stats.Compare(row.Stat, w.Stat), HasOpData: true}
				r.kernelEffect(e, streams)
				out = append(out, e)
			}
		}
	}
	return out
}

// differsInOne reports the one knob in which b differs from a.
func differsInOne(a, b string) (key, value string, ok bool) {
	ka, kb := variant.Knobs(a), variant.Knobs(b)
	if len(ka) != len(kb) || a == b {
		return "", "", false
	}
	n := 0
	for i := range ka {
		if ka[i].Key != kb[i].Key {
			return "", "", false
		}
		if ka[i].Value != kb[i].Value {
			key, value, n = kb[i].Key, kb[i].Value, n+1
		}
	}
	return key, value, n == 1
}

// kernelEffect fills in the kernel-level effect of e's choice: for ways,
// shake128.many with ways=Value against ways=WinnerValue at the measured
// stream count nearest the operation's; for ntt, the NTT kernel's generic
// code against its winner when Value is generic.
func (r *Report) kernelEffect(e *OperationEffect, streams int) {
	switch e.Knob {
	case "ways":
		g := r.nearestGroup(e.Model, "shake128.many", streams)
		if g == nil {
			return
		}
		a, b := RowOf(g, "ways="+e.Value), RowOf(g, "ways="+e.WinnerValue)
		if e.Value == "generic" {
			a = RowOf(g, variant.GenericName)
		}
		if a != nil && b != nil {
			e.Kernel, e.KernelSize, e.KernelEffect, e.HasKernel = g.Kernel, g.Size, stats.Compare(a.Stat, b.Stat), true
		}
	case "ntt":
		kernel := strings.TrimRight(strings.Split(e.Operation, ".")[0], "0123456789") + ".ntt"
		g := r.FindGroup(e.Model.Key, kernel, 0)
		if g == nil || g.Decision.Winner == "" || e.Value != "generic" {
			return
		}
		a, b := RowOf(g, variant.GenericName), RowOf(g, g.Decision.Winner)
		if a != nil && b != nil {
			e.Kernel, e.KernelEffect, e.HasKernel = kernel, stats.Compare(a.Stat, b.Stat), true
		}
	}
}

// nearestGroup returns m's group of kernel whose size is nearest to size
// on a log scale.
func (r *Report) nearestGroup(m *Model, kernel string, size int) *Group {
	var best *Group
	for _, g := range r.Groups {
		if g.Model != m || g.Kernel != kernel || g.Size <= 0 {
			continue
		}
		if best == nil || math.Abs(math.Log(float64(g.Size)/float64(size))) < math.Abs(math.Log(float64(best.Size)/float64(size))) {
			best = g
		}
	}
	return best
}
