package reports

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/internal/stats"
	"github.com/tunelab/tunelab/kernels/variant"
)

// Options are the parameters of the winner rule.
type Options struct {
	// Alpha is the significance level of the final decision's tests
	// (0.02): signed-rank over the rounds two variants share, or
	// Mann-Whitney U for variants without round records.
	Alpha float64
	// Threshold is the smallest relative advantage that counts as a win
	// (0.01 = 1%); a model's layout floor raises it (see Group.Floor).
	Threshold float64
	// Race describes the race that eliminated variants before the
	// decision (harness.RaceParams.String), for the rule line.
	Race string
}

// DefaultOptions returns alpha 0.02 and threshold 1%, after the default
// race. The race's looks and the final decision spend at most 2% each,
// so that A/A comparisons name a winner in well under 5% of runs.
func DefaultOptions() Options {
	return Options{Alpha: 0.02, Threshold: 0.01, Race: harness.DefaultRaceParams.String()}
}

// RuleVersion names the winner rule (Analyze's decide); it changes when
// the rule does, so that a result file records which rule its run meant.
// Version 3 compares variants paired by round and treats margins below
// the host's layout floor as ties unless the winner keeps winning when
// both are moved; version 2 compared independent samples (Mann-Whitney U
// at alpha 0.05), which version 3 still does for files without rounds.
const RuleVersion = "tunelab-winner/3"

// String describes the rule and its parameters in one line, as written
// in result files (decision-rule config) and printed in reports.
func (o Options) String() string {
	race := o.Race
	if race == "" {
		race = "race=none"
	}
	return fmt.Sprintf("%s paired=signed-rank+hodges-lehmann alpha=%g threshold=%g%% margin=max(threshold,layout-floor)-unless-moved min-samples=%d unpaired=mann-whitney candidates=not-external,not-offset-sweep,not-eliminated,not-excluded tie=simpler %s",
		RuleVersion, o.Alpha, 100*o.Threshold, stats.MinSamples(), race)
}

// A Report is the analysis of a Set.
type Report struct {
	Set        *Set
	Options    Options
	MinSamples int // samples benchmath needs for a 95% interval
	Groups     []*Group
	Layout     []*LayoutNoise
	Classes    []*SizeClasses
	Effects    []*KnobEffect
	Matrix     []*MatrixKernel
	// Sections are extra HTML sections appended to the HTML report, e.g.
	// llvm-mca predictions; each writes a trusted HTML fragment.
	Sections []func(w io.Writer) error
}

// A Group holds every variant measured for one (CPU model, kernel, size).
type Group struct {
	Model  *Model
	Kernel string
	Size   int
	Rows   []*Row // sorted by median, fastest first
	Base   *Row   // the generic variant, nil if not measured
	// Noise is the alignment sensitivity of the kernel's family on the
	// model, from offset sweeps in the data (see LayoutNoise); Floor is
	// the margin below which a win is a tie unless it survives moving
	// both variants: the larger of Noise and the model's recorded
	// layout floor.
	Noise, Floor float64
	Decision     Decision
	// Quality notes the runs of the group that their sweep marked busy
	// or short (quality lines: "FILE: busy: 130 of 400 attempts ...").
	Quality []string
}

// A Row is one variant's summary within a Group.
type Row struct {
	Point   *Point
	Variant string
	Stat    stats.Stat
	// VsBase compares with the group's generic variant (valid if HasBase).
	VsBase  stats.Delta
	HasBase bool
	// VsWinner compares with the winner (valid if the group has one).
	VsWinner stats.Delta
	// LayoutNoise marks a difference to the winner smaller than the
	// group's layout floor (Group.Floor).
	LayoutNoise bool
	info        variantInfo
}

// External reports whether the row is an external reference (ext=...).
func (r *Row) External() bool { return r.info.external }

// OffsetSweep reports whether the row is an align=64+N sweep member, N > 0.
func (r *Row) OffsetSweep() bool { return r.info.offsetSweep }

// Features returns the CPU features the row's variant requires, as its
// result files recorded them (else as today's catalog or its name says).
func (r *Row) Features() []string { return r.info.features }

// DecisionKind classifies how a group's winner was decided.
type DecisionKind int

// Decision kinds.
const (
	NoWinner    DecisionKind = iota // too few samples or no candidate
	Significant                     // fastest, significantly and by > threshold
	Tie                             // not significant: the simpler variant kept
	Only                            // a single candidate
)

// A Decision is the outcome of the winner rule for one group.
type Decision struct {
	Kind        DecisionKind
	Winner      string
	Other       string      // runner-up, or the other variant of a tie
	Delta       stats.Delta // Other relative to Winner
	LayoutNoise bool        // the margin did not exceed the layout floor
	Note        string
}

// Analyze computes the full report of a set.
func Analyze(set *Set, opt Options) *Report {
	r := &Report{Set: set, Options: opt, MinSamples: stats.MinSamples()}
	r.Groups = buildGroups(set)
	r.Layout = layoutNoise(r.Groups)
	for _, g := range r.Groups {
		g.Noise = noiseFor(r.Layout, g)
		g.Floor = max(g.Noise, g.Model.LayoutFloor)
		g.Decision = decide(g, opt, r.MinSamples)
		markRows(g)
	}
	r.Classes = sizeClasses(r.Groups)
	r.Effects = knobEffects(r.Groups)
	r.Matrix = matrix(r.Groups, opt)
	return r
}

func buildGroups(set *Set) []*Group {
	var groups []*Group
	var cur *Group
	for _, p := range set.Points {
		if cur == nil || cur.Model != p.Model || cur.Kernel != p.Kernel || cur.Size != p.Size {
			cur = &Group{Model: p.Model, Kernel: p.Kernel, Size: p.Size}
			groups = append(groups, cur)
		}
		row := &Row{Point: p, Variant: p.Variant, Stat: stats.SummarizeRounds(p.NS, p.Rounds), info: set.info(p.Kernel, p.Variant)}
		cur.Rows = append(cur.Rows, row)
		if p.Variant == variant.GenericName {
			cur.Base = row
		}
	}
	for _, g := range groups {
		g.Quality = set.qualities[qualityKey(g.Model, resultfile.GroupKey(g.Kernel, g.Size))]
		sort.SliceStable(g.Rows, func(i, j int) bool { return g.Rows[i].Stat.Median < g.Rows[j].Stat.Median })
		for _, row := range g.Rows {
			if g.Base != nil && row != g.Base {
				row.VsBase, row.HasBase = stats.Compare(row.Stat, g.Base.Stat), true
			}
		}
	}
	return groups
}

// candidates returns the rows that may win: not external (a reference
// the winner is compared with), not an offset sweep member, not
// eliminated by the race or excluded from it.
func candidates(g *Group) []*Row {
	var out []*Row
	for _, r := range g.Rows {
		if !r.info.external && !r.info.offsetSweep && !r.Point.Eliminated && !r.Point.Excluded {
			out = append(out, r)
		}
	}
	return out
}

// decide applies the winner rule to a group.
func decide(g *Group, opt Options, minN int) Decision {
	cands := candidates(g)
	var ok []*Row
	for _, r := range cands {
		if r.Stat.OK {
			ok = append(ok, r)
		}
	}
	if len(ok) == 0 {
		return Decision{Kind: NoWinner, Note: fmt.Sprintf("no winner: no variant has the %d samples a 95%% interval needs", minN)}
	}
	best := ok[0]
	for _, r := range cands {
		if !r.Stat.OK && r.Stat.Median < best.Stat.Median {
			return Decision{Kind: NoWinner, Note: fmt.Sprintf("no winner: %s has the lowest median but only %d samples (need %d for a 95%% interval)", r.Variant, r.Stat.N, minN)}
		}
	}
	if len(ok) == 1 {
		return Decision{Kind: Only, Winner: best.Variant, Note: best.Variant + " is the only candidate with enough samples"}
	}
	return decideAmong(g, ok, opt)
}

// decideAmong applies the rule to candidates with enough samples, sorted
// fastest first: the fastest wins if its advantage over every other holds
// (beats reports this); otherwise the simplest variant that the fastest
// does not beat is kept.
func decideAmong(g *Group, ok []*Row, opt Options) Decision {
	best, next := ok[0], ok[1]
	d := stats.Compare(next.Stat, best.Stat)
	if win, _ := beats(g, best, next, opt); win {
		return Decision{Kind: Significant, Winner: best.Variant, Other: next.Variant, Delta: d,
			Note: fmt.Sprintf("%s wins; runner-up %s %s (%s)", best.Variant, next.Variant, d, d.How())}
	}
	kept := best
	for _, r := range ok[1:] {
		if win, _ := beats(g, best, r, opt); !win && simpler(r.info, kept.info, r.Variant, kept.Variant) {
			kept = r
		}
	}
	other := best
	if kept == best {
		other = next
	}
	_, layout := beats(g, best, next, opt)
	dd := stats.Compare(other.Stat, kept.Stat)
	note := fmt.Sprintf("tie: kept %s; %s %s (%s)", kept.Variant, other.Variant, dd, dd.How())
	if layout {
		note += fmt.Sprintf(" (within the layout floor %.1f%%, and not shown to survive moving both)", 100*g.Floor)
	}
	return Decision{Kind: Tie, Winner: kept.Variant, Other: other.Variant, Delta: dd, LayoutNoise: layout, Note: note}
}

// beats reports whether best's advantage over r is significant and above
// the threshold, and survives layout: when placements of best or r were
// measured (an offset sweep: variants differing only in align=64+N),
// best's slowest placement must still beat r's fastest, whatever the
// margin; otherwise the margin must exceed the group's layout floor.
// layout reports that only the layout guard prevented the win.
func beats(g *Group, best, r *Row, opt Options) (win, layout bool) {
	d := stats.Compare(r.Stat, best.Stat)
	if !d.Significant(opt.Alpha, opt.Threshold) || d.Pct <= 0 {
		return false, false
	}
	if worst, fastest, ok := moved(g, best, r); ok {
		dm := stats.Compare(fastest.Stat, worst.Stat)
		if !dm.Significant(opt.Alpha, opt.Threshold) || dm.Pct <= 0 {
			return false, true
		}
		return true, false
	}
	if g.Floor > 0 && d.Pct <= g.Floor {
		return false, true
	}
	return true, false
}

// moved returns best's slowest and r's fastest measured placement (an
// arm without an offset sweep of at least two members stands for
// itself); ok is false when neither has one.
func moved(g *Group, best, r *Row) (worst, fastest *Row, ok bool) {
	worst, fastest = best, r
	if w := placement(g, best, true); w != nil {
		worst, ok = w, true
	}
	if f := placement(g, r, false); f != nil {
		fastest, ok = f, true
	}
	return worst, fastest, ok
}

// placement returns the slowest (or fastest) measured member of row's
// offset sweep (variants differing only in align=64+N, N >= 0), or nil
// if row is not part of a measured sweep of at least two members.
func placement(g *Group, row *Row, slowest bool) *Row {
	if resultfile.SweepOffset(row.Variant) < 0 {
		return nil
	}
	pattern := withKnob(row.Variant, "align", "*")
	var pick *Row
	n := 0
	for _, r := range g.Rows {
		if resultfile.SweepOffset(r.Variant) >= 0 && withKnob(r.Variant, "align", "*") == pattern && r.Stat.OK {
			n++
			if pick == nil || (r.Stat.Median > pick.Stat.Median) == slowest {
				pick = r
			}
		}
	}
	if n < 2 {
		return nil
	}
	return pick
}

func markRows(g *Group) {
	if g.Decision.Winner == "" {
		return
	}
	var w *Row
	for _, r := range g.Rows {
		if r.Variant == g.Decision.Winner {
			w = r
		}
	}
	for _, r := range g.Rows {
		r.VsWinner = stats.Compare(r.Stat, w.Stat)
		r.LayoutNoise = r != w && g.Floor > 0 && math.Abs(r.VsWinner.Pct) < g.Floor
	}
}

// family returns the family of a kernel from the registry, else the part
// of its name before the first '.'.
func family(kernel string) string {
	if k := variant.LookupKernel(kernel); k != nil && k.Family != "" {
		return k.Family
	}
	f, _, _ := strings.Cut(kernel, ".")
	return f
}

// Without returns the part of the report that export.FromReport needs,
// with the models of dispatch key key (every feature set) and their
// points, groups and size classes left out (for leave-one-out).
func (r *Report) Without(key string) *Report {
	sub := &Report{Set: &Set{Rules: r.Set.Rules, Files: r.Set.Files, variants: r.Set.variants, operations: r.Set.operations},
		Options: r.Options, MinSamples: r.MinSamples}
	for _, x := range r.Set.Models {
		if x.Key != key {
			sub.Set.Models = append(sub.Set.Models, x)
		}
	}
	for _, p := range r.Set.Points {
		if p.Model.Key != key {
			sub.Set.Points = append(sub.Set.Points, p)
		}
	}
	for _, g := range r.Groups {
		if g.Model.Key != key {
			sub.Groups = append(sub.Groups, g)
		}
	}
	for _, sc := range r.Classes {
		if sc.Model.Key != key {
			sub.Classes = append(sub.Classes, sc)
		}
	}
	return sub
}
