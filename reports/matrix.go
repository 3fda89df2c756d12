package reports

import (
	"fmt"
	"math"
	"sort"

	"github.com/tunelab/tunelab/internal/stats"
)

// A MatrixKernel is the cross-machine matrix of one kernel: for every
// variant and CPU model, its rank and relative speed there.
type MatrixKernel struct {
	Kernel   string
	Models   []*Model
	Variants []string
	// Cells[v][m] is variant v on model m; nil when not measured there.
	Cells [][]*MatrixCell
	Flags []string
}

// A MatrixCell is one variant on one model.
type MatrixCell struct {
	// Speed is the geometric mean over sizes of fastest median / this
	// variant's median (1 = fastest at every size).
	Speed float64
	Rank  int // 1 = best Speed among the model's ranked variants
	Of    int // number of ranked variants on the model
	Wins  bool
	// Slower: significantly slower than the model's winner at every
	// size where both were measured.
	Slower bool
}

// Loses reports whether the variant loses on this model: bottom half of
// the ranking or significantly slower than the winner.
func (c *MatrixCell) Loses() bool { return c.Rank > (c.Of+1)/2 || c.Slower }

// matrix builds one MatrixKernel per kernel measured on two or more models
// (and, for reference, on one model).
func matrix(groups []*Group, opt Options) []*MatrixKernel {
	byKernel := map[string][]*Group{}
	for _, g := range groups {
		byKernel[g.Kernel] = append(byKernel[g.Kernel], g)
	}
	var out []*MatrixKernel
	for _, k := range sortedKeys(byKernel) {
		out = append(out, kernelMatrix(k, byKernel[k], opt))
	}
	return out
}

func kernelMatrix(kernel string, groups []*Group, opt Options) *MatrixKernel {
	mk := &MatrixKernel{Kernel: kernel}
	models, variants := map[*Model]bool{}, map[string]bool{}
	for _, g := range groups {
		models[g.Model] = true
		for _, r := range g.Rows {
			if !r.info.offsetSweep {
				variants[r.Variant] = true
			}
		}
	}
	for m := range models {
		mk.Models = append(mk.Models, m)
	}
	sort.Slice(mk.Models, func(i, j int) bool { return mk.Models[i].ID() < mk.Models[j].ID() })
	mk.Variants = sortedKeys(variants)
	mk.Cells = make([][]*MatrixCell, len(mk.Variants))
	for vi := range mk.Variants {
		mk.Cells[vi] = make([]*MatrixCell, len(mk.Models))
	}
	for mi, m := range mk.Models {
		fillModel(mk, mi, modelGroups(groups, m), opt)
	}
	mk.Flags = matrixFlags(mk)
	return mk
}

func modelGroups(groups []*Group, m *Model) []*Group {
	var out []*Group
	for _, g := range groups {
		if g.Model == m {
			out = append(out, g)
		}
	}
	return out
}

// fillModel computes speeds, ranks and win/lose marks of column mi.
func fillModel(mk *MatrixKernel, mi int, groups []*Group, opt Options) {
	logs, slower, sizes := map[string]float64{}, map[string]int{}, map[string]int{}
	wins := map[string]bool{}
	for _, g := range groups {
		fastest := g.Rows[0].Stat.Median
		wins[g.Decision.Winner] = true
		w := RowOf(g, g.Decision.Winner)
		for _, r := range g.Rows {
			if r.info.offsetSweep || r.Stat.Median <= 0 {
				continue
			}
			logs[r.Variant] += math.Log(fastest / r.Stat.Median)
			sizes[r.Variant]++
			if w != nil && r != w && stats.Compare(r.Stat, w.Stat).Significant(opt.Alpha, opt.Threshold) && r.Stat.Median > w.Stat.Median {
				slower[r.Variant]++
			}
		}
	}
	ranked := sortedKeys(logs)
	speed := func(v string) float64 { return math.Exp(logs[v] / float64(sizes[v])) }
	sort.SliceStable(ranked, func(i, j int) bool { return speed(ranked[i]) > speed(ranked[j]) })
	for rank, v := range ranked {
		vi := sort.SearchStrings(mk.Variants, v)
		mk.Cells[vi][mi] = &MatrixCell{Speed: speed(v), Rank: rank + 1, Of: len(ranked), Wins: wins[v], Slower: slower[v] == sizes[v]}
	}
}

func RowOf(g *Group, name string) *Row {
	for _, r := range g.Rows {
		if r.Variant == name {
			return r
		}
	}
	return nil
}

// matrixFlags lists variants that win on one model and lose on another.
func matrixFlags(mk *MatrixKernel) []string {
	var flags []string
	for vi, v := range mk.Variants {
		for wi, w := range mk.Cells[vi] {
			if w == nil || !w.Wins {
				continue
			}
			for li, l := range mk.Cells[vi] {
				if li != wi && l != nil && l.Loses() {
					flags = append(flags, fmt.Sprintf("%s %s: wins on %s, loses on %s (%s)", mk.Kernel, v, mk.Models[wi].Label(), mk.Models[li].Label(), l.why()))
				}
			}
		}
	}
	return flags
}

func (c *MatrixCell) why() string {
	s := fmt.Sprintf("rank %d/%d, speed %.2f", c.Rank, c.Of, c.Speed)
	if c.Slower {
		s += ", significantly slower than the winner"
	}
	return s
}
