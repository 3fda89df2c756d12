package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/lab/mca"
	"github.com/tunelab/tunelab/reports"
)

// A pruning records what `sweep --prune-mca K` left out of each group.
type pruning struct {
	pct    float64
	mcpu   string
	groups map[string]*groupPruning // by group key
	check  map[string]string        // group key -> winner of a full sweep (--prune-check)
}

type groupPruning struct {
	kept, pruned  []string
	predictedBest string
}

// pruneMCA removes from every group (in place) the contenders outside
// the prediction window: it keeps, in every group, the variants llvm-mca predicts within
// pct percent of the group's best on this host's model, plus every variant
// it cannot predict (generic Go code, external references).
func pruneMCA(groups []*harness.Group, pct float64) (*pruning, error) {
	bin, err := mca.Find()
	if err != nil {
		return nil, usagef("sweep --prune-mca: %v", err)
	}
	mcpu := mca.MCPUForUarch(cpu.Host().Uarch())
	if mcpu == "" {
		return nil, usagef("sweep --prune-mca: llvm-mca has no model for this host (%s)", cpu.Host().Uarch())
	}
	pr := &pruning{pct: pct, mcpu: mcpu, groups: map[string]*groupPruning{}}
	perIter := predictOnce(bin, mcpu, groups)
	for _, g := range groups {
		pr.groups[g.Key()] = pr.pruneGroup(g, perIter)
	}
	return pr, nil
}

// predictOnce returns each distinct variant's predicted cycles per loop
// iteration (the loop body does not depend on the input size).
func predictOnce(bin, mcpu string, groups []*harness.Group) map[*variant.Variant]float64 {
	out := map[*variant.Variant]float64{}
	for _, g := range groups {
		for _, c := range g.Contenders {
			if _, done := out[c.Variant]; done || !c.Variant.HasHotCode() {
				continue
			}
			r := mca.PredictAll(context.Background(), bin, []*variant.Variant{c.Variant}, []string{mcpu}, 0)[0]
			if p := r.For(mcpu); p != nil {
				out[c.Variant] = p.CyclesPerIter
			}
		}
	}
	return out
}

// pruneGroup drops g's contenders predicted more than pr.pct percent slower
// than the best; costs are per op where every predicted contender knows its
// loop trips, else per loop iteration.
func (pr *pruning) pruneGroup(g *harness.Group, perIter map[*variant.Variant]float64) *groupPruning {
	cost := map[*variant.Variant]float64{}
	perOp := true
	for _, c := range g.Contenders {
		if it, ok := perIter[c.Variant]; ok {
			cost[c.Variant] = it
			perOp = perOp && c.Variant.LoopTrips != nil && c.Variant.LoopTrips(g.Size) > 0
		}
	}
	best, bestName := 0.0, ""
	for _, c := range g.Contenders {
		if x, ok := cost[c.Variant]; ok {
			if perOp {
				x *= c.Variant.LoopTrips(g.Size)
				cost[c.Variant] = x
			}
			if bestName == "" || x < best {
				best, bestName = x, c.Label
			}
		}
	}
	gp := &groupPruning{predictedBest: bestName}
	var kept []harness.Contender
	for _, c := range g.Contenders {
		x, predicted := cost[c.Variant]
		if predicted && x > best*(1+pr.pct/100) {
			gp.pruned = append(gp.pruned, c.Label)
			continue
		}
		kept = append(kept, c)
		gp.kept = append(gp.kept, c.Label)
	}
	g.Contenders = kept
	return gp
}

// loadCheck reads the winners of a full sweep on this host from path.
func (pr *pruning) loadCheck(e *env, path string) error {
	set, err := readResults(e, []string{path})
	if err != nil {
		return err
	}
	pr.check = map[string]string{}
	host := cpu.Host().Key()
	for _, g := range reports.Analyze(set, reports.DefaultOptions()).Groups {
		if g.Model.Key == host && g.Decision.Winner != "" {
			pr.check[groupKeyOf(g.Kernel, g.Size)] = g.Decision.Winner
		}
	}
	return nil
}

func groupKeyOf(kernel string, size int) string {
	g := harness.Group{Kernel: &variant.Kernel{Name: kernel}, Size: size}
	if k := variant.LookupKernel(kernel); k != nil {
		g.Kernel = k
	}
	return g.Key()
}

// write reports per group what was pruned, the time that saved (estimated
// from the measured time per contender) and, with a full sweep to check
// against, whether its winner was kept.
func (pr *pruning) write(w io.Writer, rep *harness.Report) {
	fmt.Fprintf(w, "\npruned by llvm-mca (%s, keep within %g%% of the predicted best):\n", pr.mcpu, pr.pct)
	var saved time.Duration
	kept, missed, checked := 0, 0, 0
	for _, gr := range rep.Groups {
		gp := pr.groups[gr.Group.Key()]
		if gp == nil {
			continue
		}
		est := time.Duration(0)
		if n := len(gp.kept); n > 0 {
			est = gr.Elapsed / time.Duration(n) * time.Duration(len(gp.pruned))
		}
		saved += est
		line := fmt.Sprintf("  %s: kept %d, pruned %d (about %v saved)", gr.Group.Key(), len(gp.kept), len(gp.pruned), est.Round(time.Millisecond))
		if win, ok := pr.check[gr.Group.Key()]; ok {
			checked++
			if contains(gp.kept, win) {
				kept++
				line += "; full-sweep winner kept"
			} else {
				missed++
				line += "; full-sweep winner PRUNED: " + win
			}
		}
		fmt.Fprintln(w, line)
	}
	fmt.Fprintf(w, "pruning saved about %v of measuring", saved.Round(time.Millisecond))
	if checked > 0 {
		fmt.Fprintf(w, "; the full sweep's winner was kept in %d of %d groups", kept, checked)
	}
	fmt.Fprintln(w)
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
