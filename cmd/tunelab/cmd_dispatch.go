package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/dispatch"
	"github.com/tunelab/tunelab/reports"
	"github.com/tunelab/tunelab/reports/loo"
	"github.com/tunelab/tunelab/reports/render"
)

func init() {
	register(&command{
		name:    "dispatch",
		summary: "show which variant this host selects per kernel and size class, and why",
		run:     runDispatch,
	})
}

// dispatchState is what `tunelab dispatch` reports on.
type dispatchState struct {
	cpu       *cpu.CPU
	table     dispatch.Table
	plans     []dispatch.KernelPlan
	overrides map[string]string // parsed TUNELAB_DISPATCH
}

// dispatchSource returns the host's state (tests replace it).
var dispatchSource = func() dispatchState {
	return dispatchState{cpu: cpu.Host(), table: dispatch.Compiled(), plans: dispatch.Plans(),
		overrides: dispatch.Overrides()}
}

func runDispatch(e *env, args []string) error {
	fs := newFlags(e, "dispatch", "dispatch [--json] [--results FILE...] | dispatch --leave-one-out FILE... [--rule R]")
	asJSON := fs.Bool("json", false, "print the plans as JSON")
	withResults := fs.Bool("results", false, "explain the plans against the winner rule's decisions from the result FILEs for this host")
	leaveOneOut := fs.Bool("leave-one-out", false, "for each CPU model in the result FILEs, pick from the table exported without its results and compare with its own winners (the regret)")
	ruleName := fs.String("rule", loo.Rules[0].Name, "with --leave-one-out, the rule whose picks are listed: nearest (production), features or level")
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case *leaveOneOut && (*withResults || *asJSON):
		return usagef("dispatch: --leave-one-out takes neither --results nor --json")
	case *leaveOneOut && len(files) == 0:
		return usagef("dispatch: --leave-one-out needs result files")
	case *leaveOneOut:
		return runLeaveOneOut(e, files, *ruleName)
	case len(files) > 0 && !*withResults:
		return usagef("dispatch: unexpected argument %q (result files need --results or --leave-one-out)", files[0])
	case *withResults && len(files) == 0:
		return usagef("dispatch: --results needs result files")
	}
	r := newDispatchReport(dispatchSource())
	if *withResults {
		if err := r.addDecisions(e, files); err != nil {
			return err
		}
	}
	if *asJSON {
		return cpuWriteJSON(e.stdout, r)
	}
	r.print(e.stdout)
	return nil
}

// runLeaveOneOut prints the leave-one-out evaluation of the named rule
// on the result files, the rules compared, and the rule's summary line.
func runLeaveOneOut(e *env, files []string, ruleName string) error {
	rule, ok := loo.LookupRule(ruleName)
	if !ok {
		return usagef("dispatch: --rule must be nearest, features or level, not %q", ruleName)
	}
	set, err := readResults(e, files)
	if err != nil {
		return err
	}
	rep := reports.Analyze(set, reports.DefaultOptions())
	render.WriteLOOText(e.stdout, loo.LeaveOneOutAll(rep, rule))
	return nil
}

// dispatchReport is the JSON shape of `tunelab dispatch --json`.
type dispatchReport struct {
	DispatchKey    string           `json:"dispatch_key"`
	Uarch          string           `json:"uarch"`
	FeatureLevel   string           `json:"feature_level"`
	Masked         []string         `json:"masked"`
	TableEntries   int              `json:"table_entries"`
	TableDefaults  int              `json:"table_defaults"`
	EntriesForHost int              `json:"table_entries_for_host"`
	Kernels        []dispatchKernel `json:"kernels"`
	// UnplannedOverrides are kernels TUNELAB_DISPATCH names that no
	// package planned (the override has no effect).
	UnplannedOverrides []string `json:"unplanned_overrides"`
}

type dispatchKernel struct {
	Kernel string `json:"kernel"`
	// Table says which table entry was used and why, or why none of the
	// model's entries was ("" when the table has none for the model).
	Table   string          `json:"table"`
	Entries []dispatchEntry `json:"entries"`
	// Nearest are other CPU models' entries for the kernel: the ones
	// that qualify, nearest first, then the others (see
	// dispatch.NearStatus).
	Nearest    []dispatchNear      `json:"nearest"`
	Choices    []dispatchChoice    `json:"choices"`
	Candidates []dispatchCandidate `json:"candidates"`
	Notes      []string            `json:"notes"`
	Warnings   []string            `json:"warnings"`
	// Decisions are the winner rule's verdicts from --results files for
	// this host's model, per measured size, with whether the plan agrees.
	Decisions []dispatchDecision `json:"decisions,omitempty"`
}

// dispatchDecision is the winner rule's verdict on one measured size.
type dispatchDecision struct {
	Size    int    `json:"size"`
	Winner  string `json:"winner"`
	Note    string `json:"note"`
	Planned string `json:"planned"` // the plan's variant at that size
	Agrees  bool   `json:"agrees"`
}

// dispatchEntry is a table entry for the host's model and the kernel.
type dispatchEntry struct {
	Uarch    string   `json:"uarch"`
	Features []string `json:"features"`
	// Match is exact, subset or legacy; "" when unusable on this host.
	Match   string   `json:"match"`
	Missing []string `json:"missing"`
	Extra   []string `json:"extra"`
	Used    bool     `json:"used"`
	Why     string   `json:"why"`
}

// dispatchNear is another CPU model's entry for the kernel.
type dispatchNear struct {
	Key        string   `json:"dispatch_key"`
	Uarch      string   `json:"uarch"`
	Features   []string `json:"features"`
	Level      string   `json:"feature_level"`
	Qualifies  bool     `json:"qualifies"`
	SameFamily bool     `json:"same_family"`
	Shared     int      `json:"shared_features"`
	Missing    []string `json:"missing"`
	Unmeasured []string `json:"unmeasured"`
	Used       bool     `json:"used"`
	Why        string   `json:"why"`
}

type dispatchChoice struct {
	MaxSize int    `json:"max_size"`
	Sizes   string `json:"sizes"`
	Variant string `json:"variant"`
	Reason  string `json:"reason"`
	Detail  string `json:"detail"`
}

type dispatchCandidate struct {
	Name     string   `json:"name"`
	Features []string `json:"features"`
	Runnable bool     `json:"runnable"`
	Missing  []string `json:"missing"`
}

func newDispatchReport(s dispatchState) dispatchReport {
	r := dispatchReport{
		DispatchKey: s.cpu.Key(), Uarch: s.cpu.Uarch(), FeatureLevel: s.cpu.Level(),
		Masked:       cpuNonNil(s.cpu.MaskedList()),
		TableEntries: len(s.table.Entries), TableDefaults: len(s.table.Defaults),
		Kernels: []dispatchKernel{},
	}
	for _, e := range s.table.Entries {
		if cpu.DispatchKey(e.Vendor, e.Family, e.Model) == r.DispatchKey {
			r.EntriesForHost++
		}
	}
	planned := map[string]bool{}
	for _, kp := range s.plans {
		r.Kernels = append(r.Kernels, newDispatchKernel(kp))
		planned[kp.Kernel] = true
	}
	r.UnplannedOverrides = []string{}
	for k := range s.overrides {
		if !planned[k] {
			r.UnplannedOverrides = append(r.UnplannedOverrides, k)
		}
	}
	sort.Strings(r.UnplannedOverrides)
	return r
}

func newDispatchKernel(kp dispatch.KernelPlan) dispatchKernel {
	k := dispatchKernel{Kernel: kp.Kernel, Table: kp.Table, Entries: []dispatchEntry{}, Nearest: []dispatchNear{},
		Notes: cpuNonNil(kp.Notes), Warnings: cpuNonNil(kp.Warnings)}
	for _, s := range kp.Entries {
		k.Entries = append(k.Entries, dispatchEntry{s.Uarch, cpuNonNil(s.Features), s.Match,
			cpuNonNil(s.Missing), cpuNonNil(s.Extra), s.Used, s.Why})
	}
	for _, s := range kp.Nearest {
		k.Nearest = append(k.Nearest, dispatchNear{s.Key, s.Uarch, cpuNonNil(s.Features), s.Level, s.Qualifies, s.SameFamily,
			s.Shared, cpuNonNil(s.Missing), cpuNonNil(s.Unmeasured), s.Used, s.Why})
	}
	prev := 0
	for i, c := range kp.Choices {
		detail := ""
		if i < len(kp.Details) {
			detail = kp.Details[i]
		}
		k.Choices = append(k.Choices, dispatchChoice{c.MaxSize, dispatchSizes(prev, c.MaxSize, len(kp.Choices)), c.Variant, c.Reason, detail})
		prev = c.MaxSize
	}
	for _, c := range kp.Candidates {
		k.Candidates = append(k.Candidates, dispatchCandidate{c.Name, cpuNonNil(c.Features), c.Runnable(), cpuNonNil(c.Missing)})
	}
	return k
}

// dispatchSizes labels the size class (prev, max]: "all", "<= 256",
// "257..1024", "> 1024".
func dispatchSizes(prev, max, n int) string {
	switch {
	case n == 1:
		return "all"
	case max == 0:
		return fmt.Sprintf("> %d", prev)
	case prev == 0:
		return fmt.Sprintf("<= %d", max)
	}
	return fmt.Sprintf("%d..%d", prev+1, max)
}

func (r dispatchReport) print(w io.Writer) {
	masked := "none"
	if len(r.Masked) > 0 {
		masked = strings.Join(r.Masked, " ")
	}
	fmt.Fprintf(w, "cpu     %s (%s), %s; masked: %s\n", r.DispatchKey, r.Uarch, r.FeatureLevel, masked)
	fmt.Fprintf(w, "table   entries %d (%d for this model), defaults %d\n", r.TableEntries, r.EntriesForHost, r.TableDefaults)
	for _, k := range r.UnplannedOverrides {
		fmt.Fprintf(w, "warning: %s names kernel %q, which no package planned; ignored\n", dispatch.EnvDispatch, k)
	}
	if len(r.Kernels) == 0 {
		fmt.Fprintln(w, "\nno kernel has planned its dispatch")
	}
	for _, k := range r.Kernels {
		k.print(w)
	}
}

func (k dispatchKernel) print(w io.Writer) {
	runnable := 0
	for _, c := range k.Candidates {
		if c.Runnable {
			runnable++
		}
	}
	fmt.Fprintf(w, "\n%s  (%d candidates, %d runnable)\n", k.Kernel, len(k.Candidates), runnable)
	k.printEntries(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range k.Choices {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", c.Sizes, c.Variant, c.Detail)
	}
	tw.Flush()
	for _, n := range k.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	for _, d := range k.Decisions {
		verdict := "the plan agrees"
		if !d.Agrees {
			verdict = "the plan runs " + d.Planned + " (re-export the table to follow the results)"
		}
		fmt.Fprintf(w, "  results size=%d: %s; %s\n", d.Size, d.Note, verdict)
	}
	for _, n := range k.Warnings {
		fmt.Fprintf(w, "  warning: %s\n", n)
	}
}

// printEntries says which table entry was used and why, then why each
// other entry for the model was not and, unless this model's entry
// decided, why each other model's entry was not used.
func (k dispatchKernel) printEntries(w io.Writer) {
	if k.Table == "" {
		return
	}
	fmt.Fprintf(w, "  source: %s\n", k.Table)
	used := slices.ContainsFunc(k.Entries, func(e dispatchEntry) bool { return e.Used })
	for _, e := range k.Entries {
		if used && !e.Used {
			fmt.Fprintf(w, "  other:  %s\n", e.Why)
		}
	}
	if used && !slices.ContainsFunc(k.Choices, func(c dispatchChoice) bool { return c.Reason != dispatch.ReasonTable }) {
		return
	}
	for _, n := range k.Nearest {
		if !n.Used && !strings.Contains(k.Table, n.Why) {
			fmt.Fprintf(w, "  also:   %s\n", n.Why)
		}
	}
}

// addDecisions applies the winner rule (the one sweep, report and export
// use) to the result files and records, per kernel and measured size on
// this host's model, its verdict and whether the plan selects it.
func (r *dispatchReport) addDecisions(e *env, files []string) error {
	set, err := readResults(e, files)
	if err != nil {
		return err
	}
	rep := reports.Analyze(set, reports.DefaultOptions())
	for i := range r.Kernels {
		k := &r.Kernels[i]
		for _, g := range rep.Groups {
			if g.Model.Key != r.DispatchKey || g.Kernel != k.Kernel || g.Decision.Winner == "" {
				continue
			}
			planned := k.variantAt(g.Size)
			k.Decisions = append(k.Decisions, dispatchDecision{g.Size, g.Decision.Winner, g.Decision.Note, planned, planned == g.Decision.Winner})
		}
	}
	return nil
}

// variantAt returns the planned variant for inputs of size bytes.
func (k dispatchKernel) variantAt(size int) string {
	for _, c := range k.Choices {
		if c.MaxSize == 0 || size <= c.MaxSize {
			return c.Variant
		}
	}
	return ""
}
