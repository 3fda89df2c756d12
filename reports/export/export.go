package export

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
)

// A Table is the exported dispatch table (JSON schema 1).
type Table struct {
	Schema        int       `json:"schema"`
	GeneratedFrom []string  `json:"generated_from"`
	Entries       []Entry   `json:"entries"`
	Defaults      []Default `json:"defaults"`
	// paths maps the digests of GeneratedFrom to the files' paths.
	paths map[string]string
	// Notes say what FromReport left out and why (not written).
	Notes []string `json:"-"`
	// unknownWarning warns of results without host identity.
	unknownWarning []string
}

// genericUnopposed reports whether every class of sc is won by the
// generic variant as the only candidate of its groups: the files
// measured no SIMD variant there (none existed at their commit, or none
// passed verification), so they say nothing against today's SIMD
// variants, and no entry should pin the kernel to generic Go.
func (r report) genericUnopposed(sc *reports.SizeClasses) bool {
	for _, c := range sc.Classes {
		if c.Variant != variant.GenericName {
			return false
		}
	}
	for _, g := range r.Groups {
		if g.Model == sc.Model && g.Kernel == sc.Kernel && g.Decision.Kind != reports.Only && g.Decision.Winner != "" {
			return false
		}
	}
	return true
}

// A CPU is a CPU model's identity in the table.
type CPU struct {
	Vendor string `json:"vendor"`
	Family int    `json:"family"`
	Model  int    `json:"model"`
}

// An Entry selects variants of one kernel on one CPU model measured with
// one feature set.
type Entry struct {
	CPU    CPU    `json:"cpu"`
	Uarch  string `json:"uarch"`
	Kernel string `json:"kernel"`
	// Features are the features the sweep ran with (the result file's
	// features config) as dispatch names in canonical order; names
	// kernels/cpu does not know are left out, as no variant it can
	// run needs them. Empty for a legacy entry of an earlier table.
	Features []string `json:"features"`
	Choices  []Choice `json:"choices"`
	Evidence Evidence `json:"evidence"`
	// LegacyBase marks an entry of the fleet's legacy base: measured by
	// result files the fleet does not hold (see AddLegacyBase).
	LegacyBase bool `json:"legacy_base,omitempty"`
	// legacy marks an entry read from a table without its features; its
	// choices are not checked against them.
	legacy bool
}

// Key returns the dispatch key of the entry's CPU model.
func (e *Entry) Key() string { return cpu.DispatchKey(e.CPU.Vendor, e.CPU.Family, e.CPU.Model) }

// id identifies an entry within a table: model, kernel and feature set.
func (e *Entry) id() string {
	return e.Key() + " " + e.Kernel + " [" + strings.Join(e.Features, ",") + "]"
}

// A Choice selects Variant for inputs of at most MaxSize bytes; 0 means no
// upper bound.
type Choice struct {
	MaxSize int    `json:"max_size"`
	Variant string `json:"variant"`
}

// Evidence backs an entry with the decision for its unbounded (largest
// measured size) class: the winner's sample count, median and 95% interval
// in ns/op, its margin over the other variant of the decision (runner-up's
// time ratio minus one; negative for a tie kept for simplicity) and the
// p-value of that comparison (signed-rank when paired by round, else
// Mann-Whitney U; 1 when there was none).
type Evidence struct {
	Samples  int        `json:"samples"`
	MedianNS float64    `json:"median_ns"`
	CI       [2]float64 `json:"ci"`
	Margin   float64    `json:"margin"`
	P        float64    `json:"p"`
}

// A Default is the choice for CPU models not in the table that have every
// feature in Features (the feature level's features plus what the chosen
// variants need).
type Default struct {
	Level    string   `json:"-"`
	Features []string `json:"features"`
	Kernel   string   `json:"kernel"`
	Choices  []Choice `json:"choices"`
}

// FromReport builds the dispatch table of an analysed report (see
// build).
func FromReport(r *reports.Report) *Table { return report{r}.build() }

// build builds the dispatch table of a report: one entry per (CPU model,
// kernel) with a winner at some size, with the model's features, and
// defaults per feature level. Entries are sorted by dispatch key, kernel
// and feature set.
func (r report) build() *Table {
	t := &Table{Schema: 1, GeneratedFrom: []string{}, Entries: []Entry{}, Defaults: []Default{}, paths: map[string]string{}}
	for _, f := range r.Set.Files {
		t.GeneratedFrom = append(t.GeneratedFrom, f.Digest)
		t.paths[f.Digest] = f.Path
	}
	sort.Strings(t.GeneratedFrom) // the same table for any order of the same files
	for _, sc := range r.Classes {
		if len(sc.Classes) == 0 || sc.Model.Unknown || r.Set.IsOperation(sc.Kernel) {
			continue // no winner; no identity to key an entry by; or never dispatched
		}
		if r.genericUnopposed(sc) {
			t.Notes = append(t.Notes, fmt.Sprintf("no entry for %s on %s (%s): its files measured no SIMD variant against isa=generic (none verified, or none at that commit); the defaults decide",
				sc.Kernel, sc.Model.Key, sc.Model.Label()))
			continue
		}
		m := sc.Model
		r.warnQuality(t, m, sc.Kernel, sc.Classes)
		features, _ := cpu.CanonicalFeatures(m.Features)
		t.Entries = append(t.Entries, Entry{
			CPU: CPU{m.Vendor, m.Family, m.Model}, Uarch: m.Uarch, Kernel: sc.Kernel,
			Features: features, Choices: choices(sc.Classes), Evidence: r.evidence(sc),
		})
	}
	t.sortEntries()
	t.Defaults = append(t.Defaults, r.defaults()...)
	return t
}

// unknownHostPoints returns how many variant/size points of the report
// were measured on the unknown host (results without tunelab's identity):
// FromReport makes no entries or defaults from them.
func (r report) unknownHostPoints() int {
	n := 0
	for _, p := range r.Set.Points {
		if p.Model.Unknown {
			n++
		}
	}
	return n
}

// sortEntries sorts entries by dispatch key, kernel and feature set, the
// larger set first.
func (t *Table) sortEntries() {
	sort.SliceStable(t.Entries, func(i, j int) bool {
		a, b := &t.Entries[i], &t.Entries[j]
		return cmp.Or(cmp.Compare(a.CPU.Vendor, b.CPU.Vendor), cmp.Compare(a.CPU.Family, b.CPU.Family),
			cmp.Compare(a.CPU.Model, b.CPU.Model), cmp.Compare(a.Kernel, b.Kernel),
			-cmp.Compare(len(a.Features), len(b.Features)),
			cmp.Compare(strings.Join(a.Features, ","), strings.Join(b.Features, ","))) < 0
	})
}

func choices(cs []reports.Class) []Choice {
	out := make([]Choice, len(cs))
	for i, c := range cs {
		out[i] = Choice{MaxSize: c.MaxSize, Variant: c.Variant}
	}
	return out
}

// evidence describes the decision at the largest size of the last class.
func (r report) evidence(sc *reports.SizeClasses) Evidence {
	last := sc.Classes[len(sc.Classes)-1]
	size := last.Sizes[len(last.Sizes)-1]
	for _, g := range r.Groups {
		if g.Model != sc.Model || g.Kernel != sc.Kernel || g.Size != size {
			continue
		}
		w := reports.RowOf(g, g.Decision.Winner)
		ev := Evidence{Samples: w.Stat.N, MedianNS: w.Stat.Median, CI: [2]float64{w.Stat.Lo, w.Stat.Hi}, P: 1}
		if g.Decision.Other != "" {
			ev.Margin, ev.P = g.Decision.Delta.Pct, g.Decision.Delta.P
		}
		return ev
	}
	return Evidence{}
}

// JSON returns the table as indented JSON. It refuses a table Validate
// refuses, as GoSource does: both formats name only registered,
// dispatchable variants.
func (t *Table) JSON() ([]byte, error) {
	if err := t.Validate(); err != nil {
		return nil, fmt.Errorf("refusing to write an invalid dispatch table:\n%w", err)
	}
	b, err := json.MarshalIndent(t, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding dispatch table: %w", err)
	}
	return append(b, '\n'), nil
}

// Validate checks that vendor and uarch of every entry have the shapes
// kernels/cpu accepts (CheckVendor, CheckUarch), that every named
// variant is registered (kernels/variant),
// is not an external reference, and that its required features are a
// subset of the entry's features (of a default's features; legacy entries
// are not checked), that each choice list is ordered with a final
// unbounded choice, that entry features are known to kernels/cpu and
// that no two entries share model, kernel and feature set.
func (t *Table) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for _, e := range t.Entries {
		where := fmt.Sprintf("entry %q (%q) %q", e.Key(), e.Uarch, e.Kernel)
		errs = append(errs, validateEntry(&e, where)...)
		if seen[e.id()] {
			errs = append(errs, fmt.Errorf("%s: duplicate entry for features [%s]", where, strings.Join(e.Features, ",")))
		}
		seen[e.id()] = true
	}
	for _, d := range t.Defaults {
		where := fmt.Sprintf("default %s %s", d.Level, d.Kernel)
		errs = append(errs, validateChoices(where, d.Kernel, d.Choices, d.Features, "default")...)
	}
	return errors.Join(errs...)
}

func validateEntry(e *Entry, where string) []error {
	var errs []error
	if err := cpu.CheckVendor(e.CPU.Vendor); err != nil {
		errs = append(errs, fmt.Errorf("%s: %w", where, err))
	}
	if e.Uarch != "" {
		if err := cpu.CheckUarch(e.Uarch); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", where, err))
		}
	}
	if _, unknown := cpu.CanonicalFeatures(e.Features); len(unknown) > 0 {
		errs = append(errs, fmt.Errorf("%s: features %v unknown to kernels/cpu", where, unknown))
	}
	if e.legacy {
		return append(errs, validateChoices(where, e.Kernel, e.Choices, nil, "")...)
	}
	return append(errs, validateChoices(where, e.Kernel, e.Choices, e.Features, "CPU model")...)
}

// validateChoices checks a choice list; its variants' features must be
// in have unless whose is "" (not checked).
func validateChoices(where, kernel string, cs []Choice, have []string, whose string) []error {
	var errs []error
	if len(cs) == 0 || cs[len(cs)-1].MaxSize != 0 {
		errs = append(errs, fmt.Errorf("%s: choices must end with an unbounded (max_size 0) choice", where))
	}
	for i, c := range cs {
		if i > 0 && c.MaxSize != 0 && c.MaxSize <= cs[i-1].MaxSize {
			errs = append(errs, fmt.Errorf("%s: max_size %d after %d is not increasing", where, c.MaxSize, cs[i-1].MaxSize))
		}
		v := variant.Lookup(kernel, c.Variant)
		switch {
		case v == nil:
			errs = append(errs, fmt.Errorf("%s: variant %q is not registered", where, c.Variant))
		case v.External:
			errs = append(errs, fmt.Errorf("%s: variant %q is an external reference, never dispatched", where, c.Variant))
		case whose != "":
			if miss := missing(v.Features, have); len(miss) > 0 {
				errs = append(errs, fmt.Errorf("%s: variant %q needs %v, which the %s lacks", where, c.Variant, miss, whose))
			}
		}
	}
	return errs
}

// missing returns the features of need that have lacks.
func missing(need, have []string) []string {
	set := map[string]bool{}
	for _, f := range have {
		set[f] = true
	}
	var out []string
	for _, f := range need {
		if !set[f] {
			out = append(out, f)
		}
	}
	return out
}

// levels are the x86-64 feature levels defaults are computed for, with
// the features each needs (as in kernels/cpu, whose FeatureLevel the
// tests check these lists against).
var levels = []struct {
	name     string
	features []string
}{
	{"x86-64-v2", levelV2},
	{"x86-64-v3", levelV3},
	{"x86-64-v4", append(append([]string(nil), levelV3...), "avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl")},
}

var (
	levelV2 = []string{"cx16", "lahf", "popcnt", "sse3", "ssse3", "sse41", "sse42"}
	levelV3 = append(append([]string(nil), levelV2...), "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "movbe", "osxsave")
)

// levelRank returns 2..4 for x86-64-v2..v4 and 0 for anything else.
func levelRank(level string) int {
	for i, l := range levels {
		if l.name == level {
			return i + 2
		}
	}
	return 0
}

// defaults computes, per feature level and kernel, the variant with the
// best geometric-mean relative speed across the measured models of at
// least that level, per size, merged into classes.
func (r report) defaults() []Default {
	var out []Default
	for li, lv := range levels {
		models := modelsAtLevel(r.Set.Models, li)
		for _, k := range r.kernels() {
			if d, ok := r.levelDefault(lv.name, lv.features, models, k); ok {
				out = append(out, d)
			}
		}
	}
	return out
}

func (r report) kernels() []string {
	ks := map[string]bool{}
	for _, g := range r.Groups {
		if !r.Set.IsOperation(g.Kernel) {
			ks[g.Kernel] = true
		}
	}
	return sortedKeys(ks)
}

// modelsAtLevel returns the models that reach level li: by their
// feature-level config, else by their feature list.
func modelsAtLevel(models []*reports.Model, li int) []*reports.Model {
	var out []*reports.Model
	for _, m := range models {
		if m.Unknown {
			continue
		}
		if r := levelRank(m.Level); r > 0 && r >= li+2 || r == 0 && m.Has(levels[li].features) {
			out = append(out, m)
		}
	}
	return out
}

// levelDefault picks the default of one kernel at one level. Candidates
// need only features of the level or features every one of the models
// has; a candidate must be measured (with enough samples) on every model
// that measured a SIMD variant at the size (measuredSIMD).
func (r report) levelDefault(level string, lvFeatures []string, models []*reports.Model, kernel string) (Default, bool) {
	allowed := commonFeatures(models, lvFeatures)
	bySize := map[int][]*reports.Group{}
	for _, g := range r.Groups {
		if g.Kernel == kernel && containsModel(models, g.Model) && measuredSIMD(g) {
			bySize[g.Size] = append(bySize[g.Size], g)
		}
	}
	if len(bySize) == 0 {
		return Default{}, false
	}
	var sizes []int
	for s := range bySize {
		sizes = append(sizes, s)
	}
	sort.Ints(sizes)
	picks := make([]string, len(sizes))
	for i, s := range sizes {
		picks[i] = bestGeomean(bySize[s], allowed)
	}
	cs := reports.MergeChoices(sizes, picks)
	if len(cs) == 0 {
		return Default{}, false
	}
	d := Default{Level: level, Kernel: kernel, Choices: choices(cs)}
	d.Features = chosenFeatures(r.Set, kernel, lvFeatures, d.Choices)
	return d, true
}

// measuredSIMD reports whether g measured a candidate besides the
// generic variant: a group that measured only generic Go (no SIMD
// variant at its file's commit, or none verified) says nothing about
// today's SIMD variants, so it does not narrow a default's candidates
// to generic.
func measuredSIMD(g *reports.Group) bool {
	for _, r := range g.Rows {
		if r.Stat.OK && r.Variant != variant.GenericName && !r.External() && !r.OffsetSweep() && !r.Point.Excluded {
			return true
		}
	}
	return false
}

// commonFeatures returns the level's features plus the features all models
// have that no feature level defines and that are not AVX extensions (e.g.
// aes, pclmulqdq, adx): a default may use those, and lists them in its
// Features, but never a feature of a higher level.
func commonFeatures(models []*reports.Model, level []string) []string {
	count := map[string]int{}
	for _, m := range models {
		for _, f := range m.Features {
			count[f]++
		}
	}
	inLevel := map[string]bool{}
	for _, f := range levels[len(levels)-1].features {
		inLevel[f] = true
	}
	out := append([]string(nil), level...)
	for f, n := range count {
		if n == len(models) && !inLevel[f] && !strings.HasPrefix(f, "avx") {
			out = append(out, f)
		}
	}
	return out
}

func containsModel(ms []*reports.Model, m *reports.Model) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// bestGeomean returns the candidate with the highest geometric mean over
// groups (one per model) of fastest median / its median; ties go to the
// simpler variant.
func bestGeomean(groups []*reports.Group, allowed []string) string {
	sum, n := map[string]float64{}, map[string]int{}
	rows := map[string]*reports.Row{}
	for _, g := range groups {
		fastest := math.Inf(1)
		for _, r := range g.Rows {
			if r.Stat.OK {
				fastest = math.Min(fastest, r.Stat.Median)
			}
		}
		for _, r := range g.Rows {
			if r.Stat.OK && !r.External() && !r.OffsetSweep() && len(missing(r.Features(), allowed)) == 0 {
				sum[r.Variant] += math.Log(fastest / r.Stat.Median)
				n[r.Variant]++
				rows[r.Variant] = r
			}
		}
	}
	best := ""
	for _, v := range sortedKeys(sum) {
		if n[v] != len(groups) {
			continue // not measured on every model
		}
		if best == "" || sum[v] > sum[best]+1e-12 || math.Abs(sum[v]-sum[best]) <= 1e-12 && reports.Simpler(rows[v], rows[best]) {
			best = v
		}
	}
	return best
}

// chosenFeatures is the level's features plus every chosen variant's.
func chosenFeatures(s *reports.Set, kernel string, level []string, cs []Choice) []string {
	set := map[string]bool{}
	for _, f := range level {
		set[f] = true
	}
	for _, c := range cs {
		for _, f := range s.VariantFeatures(kernel, c.Variant) {
			set[f] = true
		}
	}
	return sortedKeys(set)
}
