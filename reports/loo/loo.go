package loo

import (
	"fmt"
	"math"
	"slices"

	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/export"
)

// A Rule is a way to choose variants for a CPU the table does not
// name, as leave-one-out compares them.
type Rule struct {
	// Name is "nearest", "features" or "level".
	Name string
	// Dispatch is the dispatch rule for the sizes the CPU's own entry
	// leaves open (here: all of them).
	Dispatch dispatch.Rule
	// FeatureDefaults adds defaults keyed by feature sets beyond the
	// level (see FeatureKeys) to the table's level defaults.
	FeatureDefaults bool
}

// Rules are the rules leave-one-out compares; the first is the one
// production uses (dispatch.Resolve).
var Rules = []Rule{
	{Name: "nearest", Dispatch: dispatch.RuleNearest},
	{Name: "features", Dispatch: dispatch.RuleDefaults, FeatureDefaults: true},
	{Name: "level", Dispatch: dispatch.RuleDefaults},
}

// LookupRule returns the rule named name.
func LookupRule(name string) (Rule, bool) {
	i := slices.IndexFunc(Rules, func(r Rule) bool { return r.Name == name })
	if i < 0 {
		return Rule{}, false
	}
	return Rules[i], true
}

// A Result is a leave-one-out evaluation of a rule over a report's models:
// for each model, the table is exported without the results of its CPU
// model (every feature set measured under its dispatch key: the table
// then does not name it), dispatch resolves what the rule picks for the
// model's features, and the pick's time is compared with the model's own
// winner at every measured size (the regret, pick/winner - 1).
type Result struct {
	Rule   Rule
	Models []*Model
	// Summary over every model's scored picks.
	Summary Summary
}

// A Model is one left-out model's picks.
type Model struct {
	Model *reports.Model
	// Others counts the models (feature sets) the table was exported
	// from.
	Others int
	Picks  []*Pick
	// Summary over this model's scored picks.
	Summary Summary
}

// A Pick is what dispatch picks for one kernel and measured size of a
// left-out model.
type Pick struct {
	Kernel string
	Size   int
	// Winner is the model's own winner at Size.
	Winner string
	// Pick is the variant dispatch picks from the table without the
	// model; Reason and Detail say where it came from.
	Pick, Reason, Detail string
	// Measured reports whether the model measured Pick at Size; Regret
	// compares it with the winner there (Pct = pick/winner - 1, PM its
	// 95% interval's half-width; infinite when the pick has too few
	// samples for an interval).
	Measured bool
	Regret   stats.Delta
	// Skipped says why the pick is not scored ("" when it is): the
	// kernel's package runs its own default on a CPU the table does not
	// name, whatever the table says.
	Skipped string
}

// A Summary sums up scored picks: their count, how many the left-out
// model never measured, the geometric mean regret of the measured ones
// and the largest.
type Summary struct {
	Picks, Unmeasured int
	Geomean, Max      float64
	MaxPick           *Pick
	MaxModel          *reports.Model
}

// packageDefaults returns, per kernel, why its package runs its own
// default instead of other CPUs' choices (dispatch.Fallback); a variable
// for tests.
var packageDefaults = func() map[string]string {
	out := map[string]string{}
	for _, kp := range dispatch.Plans() {
		if kp.OwnDefault != "" {
			out[kp.Kernel] = kp.OwnDefault
		}
	}
	return out
}

// leaveOneOut evaluates rule on every model of the report with a known
// identity.
func (r report) leaveOneOut(rule Rule) *Result {
	l := &Result{Rule: rule}
	own := packageDefaults()
	for _, m := range r.Set.Models {
		if m.Unknown {
			continue
		}
		lm := r.leaveOut(m, rule, own)
		l.Models = append(l.Models, lm)
		for _, p := range lm.Picks {
			l.Summary.add(p, m)
		}
	}
	l.Summary.finish()
	return l
}

// leaveOut resolves the rule's picks for m from the table of the other
// models and scores them against m's winners.
func (r report) leaveOut(m *reports.Model, rule Rule, own map[string]string) *Model {
	sub := r.Without(m.Key)
	t := export.FromReport(sub)
	if rule.FeatureDefaults {
		t.Defaults = append(export.FeatureDefaults(sub), t.Defaults...)
	}
	entries, defaults := t.DispatchTable()
	table := dispatch.Table{Entries: entries, Defaults: defaults}
	lm := &Model{Model: m, Others: len(sub.Set.Models)}
	// The model's features plus those of its recorded level (a result
	// file may list only the kernel-relevant ones).
	mc := &cpu.CPU{Arch: "amd64", Vendor: m.Vendor, Family: m.Family, Model: m.Model}
	known, _ := cpu.CanonicalFeatures(export.WithLevel(m.Level, m.Features))
	if err := mc.SetFeatures(known...); err != nil {
		return lm
	}
	byKernel := map[string][]*reports.Group{}
	for _, g := range r.Groups {
		byKernel[g.Kernel] = append(byKernel[g.Kernel], g)
	}
	plans := map[string]dispatch.KernelPlan{}
	for _, g := range r.Groups {
		if g.Model != m || g.Decision.Winner == "" || r.Set.IsOperation(g.Kernel) {
			continue
		}
		kp, ok := plans[g.Kernel]
		if !ok {
			kp = dispatch.ResolveRule(mc, table, rule.Dispatch, "", g.Kernel, reports.DispatchCandidates(g.Kernel, byKernel[g.Kernel]))
			plans[g.Kernel] = kp
		}
		p := scorePick(g, kp)
		if why, ok := own[g.Kernel]; ok && p.Reason != dispatch.ReasonTable {
			p.Skipped = "package default: " + why
		}
		lm.Picks = append(lm.Picks, p)
		lm.Summary.add(p, m)
	}
	lm.Summary.finish()
	return lm
}

// scorePick compares the plan's choice at g's size with g's winner.
func scorePick(g *reports.Group, kp dispatch.KernelPlan) *Pick {
	i := dispatch.ForSize(kp.Choices, g.Size)
	c := kp.Choices[i]
	p := &Pick{Kernel: g.Kernel, Size: g.Size, Winner: g.Decision.Winner, Pick: c.Variant, Reason: c.Reason, Detail: kp.Details[i]}
	w, row := reports.RowOf(g, p.Winner), reports.RowOf(g, p.Pick)
	switch {
	case p.Pick == p.Winner:
		p.Measured, p.Regret = true, stats.Delta{P: 1}
	case row != nil && row.Stat.N > 0:
		p.Measured, p.Regret = true, stats.Compare(row.Stat, w.Stat)
	}
	return p
}

// add counts a pick of model m.
func (s *Summary) add(p *Pick, m *reports.Model) {
	if p.Skipped != "" {
		return
	}
	s.Picks++
	if !p.Measured {
		s.Unmeasured++
		return
	}
	s.Geomean += math.Log1p(p.Regret.Pct)
	if s.MaxPick == nil || p.Regret.Pct > s.Max {
		s.Max, s.MaxPick, s.MaxModel = p.Regret.Pct, p, m
	}
}

// finish turns the sum of log ratios into the geometric mean regret.
func (s *Summary) finish() {
	if n := s.Picks - s.Unmeasured; n > 0 {
		s.Geomean = math.Expm1(s.Geomean / float64(n))
	}
}

// Line is the summary in one line: "leave-one-out regret: geomean 1.2%,
// max 9.8% (poly1305 1024 on Zen 4), 120 picks, 3 unmeasured".
func (s Summary) Line() string {
	return "leave-one-out regret: " + s.Figures()
}

// Figures is Line without its label.
func (s Summary) Figures() string {
	max := "max -"
	if s.MaxPick != nil {
		max = fmt.Sprintf("max %.1f%% (%s on %s)", 100*s.Max, kernelSize(s.MaxPick.Kernel, s.MaxPick.Size), s.MaxModel.Label())
	}
	return fmt.Sprintf("geomean %.1f%%, %s, %d picks, %d unmeasured", 100*s.Geomean, max, s.Picks, s.Unmeasured)
}

// kernelSize names a kernel at a size: "poly1305 1024", or the kernel
// alone for a fixed-size kernel.
func kernelSize(kernel string, size int) string {
	if size == 0 {
		return kernel
	}
	return fmt.Sprintf("%s %d", kernel, size)
}

// Paired compares another rule's picks with a reference rule's,
// pick by pick (same model, kernel and size) where the two picks differ
// and both were measured: on how many the other rule's regret is lower
// (Better) or higher (Worse), the two-sided sign test's p-value of that
// split, and the geometric mean of the other pick's time over the
// reference pick's minus one (Ratio) with the half-width of its 95%
// interval (PM; infinite with fewer than two picks).
type Paired struct {
	Better, Worse int
	P             float64
	Ratio, PM     float64
}

// Paired compares l's picks with ref's.
func (l *Result) Paired(ref *Result) Paired {
	type key struct {
		m      *reports.Model
		kernel string
		size   int
	}
	refs := map[key]*Pick{}
	for _, lm := range ref.Models {
		for _, p := range lm.Picks {
			refs[key{lm.Model, p.Kernel, p.Size}] = p
		}
	}
	var out Paired
	var ratios []float64
	for _, lm := range l.Models {
		for _, p := range lm.Picks {
			r := refs[key{lm.Model, p.Kernel, p.Size}]
			if r == nil || r.Pick == p.Pick || !p.Measured || !r.Measured || p.Skipped != "" || r.Skipped != "" {
				continue
			}
			ratios = append(ratios, (1+p.Regret.Pct)/(1+r.Regret.Pct))
			switch {
			case p.Regret.Pct < r.Regret.Pct:
				out.Better++
			case p.Regret.Pct > r.Regret.Pct:
				out.Worse++
			}
		}
	}
	out.P = stats.SignTestP(out.Better, out.Worse)
	if len(ratios) > 0 {
		out.Ratio, out.PM = stats.GeoMeanInterval(ratios)
	}
	return out
}

// RegretCell formats the pick's regret: "+3.1% ±1.2%", "0 (its winner)",
// "unmeasured" or why it is not scored.
func (p *Pick) RegretCell() string {
	switch {
	case p.Skipped != "":
		return "not scored: " + p.Skipped
	case !p.Measured:
		return "unmeasured"
	case p.Pick == p.Winner:
		return "0 (its winner)"
	}
	return stats.FormatPct(p.Regret.Pct) + " " + stats.FormatPM(p.Regret.PM)
}

func sizeCell(size int) string {
	if size == 0 {
		return "-"
	}
	return fmt.Sprint(size)
}

// SizeCell is the size for tables: "-" for a fixed-size kernel.
func (p *Pick) SizeCell() string { return sizeCell(p.Size) }

// Diff is the pick's knobs unlike its winner's ("=" for the winner).
func (p *Pick) Diff() string { return reports.DiffLabel(p.Pick, p.Winner) }

// leaveOneOutAll evaluates main and then every other rule of Rules,
// for render.WriteLOOText.
func (r report) leaveOneOutAll(main Rule) []*Result {
	out := []*Result{r.leaveOneOut(main)}
	for _, rule := range Rules {
		if rule.Name != main.Name {
			out = append(out, r.leaveOneOut(rule))
		}
	}
	return out
}
