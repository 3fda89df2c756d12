package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/reports"
)

// plainEvery is how often a sweep whose stderr is not a terminal prints
// a progress line.
const plainEvery = 10 * time.Second

// timeLeft estimates how long a sweep has left: the time per contender
// of the finished groups times the contenders still to run, and at least
// what is left of the budget (the budget is shared out so that the sweep
// uses it, unless verification and minimum samples take longer). ok is
// false while nothing is known yet.
func timeLeft(p harness.Progress) (left time.Duration, ok bool) {
	budget := max(p.BudgetLeft, 0)
	if p.ContendersDone == 0 || p.Contenders <= p.ContendersDone {
		return budget, budget > 0
	}
	perContender := p.Elapsed / time.Duration(p.ContendersDone)
	return max(perContender*time.Duration(p.Contenders-p.ContendersDone), budget), true
}

// progressStatus formats where a sweep stands: "group 13/66
// poly1305/size=64, 1m2s elapsed, ~4m10s left".
func progressStatus(p harness.Progress) string {
	eta := "time left unknown"
	if left, ok := timeLeft(p); ok {
		eta = "~" + left.Round(time.Second).String() + " left"
	}
	return fmt.Sprintf("group %d/%d %s, %v elapsed, %s", p.GroupIndex+1, p.Groups, p.Group, p.Elapsed.Round(time.Second), eta)
}

// plainProgress returns a progress function for a stderr that is not a
// terminal: one plain line, "progress: <status>", when a sample arrives
// at least every seconds after the previous line (and for the first).
func plainProgress(w io.Writer, every time.Duration) func(harness.Progress) {
	var last time.Duration
	printed := false
	return func(p harness.Progress) {
		if printed && p.Elapsed-last < every {
			return
		}
		printed, last = true, p.Elapsed
		fmt.Fprintln(w, "progress:", progressStatus(p))
	}
}

// A skipGroup is the skipped variants of one kernel for one reason;
// for missing features, need lists them and sets counts the distinct
// sets the variants need.
type skipGroup struct {
	kernel, reason string
	n              int
	need           []string
	sets           map[string]bool
}

// skipLines summarizes skipped variants in one line per kernel and
// reason: "aes128.dec: 20 variants need avx512f, avx512vl: skipped" (with
// "one or more of" when the variants need different sets).
func skipLines(skips []harness.Skip) []string {
	var groups []*skipGroup
	byKey := map[[2]string]*skipGroup{}
	for _, s := range skips {
		missing, isFeature := strings.CutPrefix(s.Reason, "missing CPU feature ")
		k := [2]string{s.Kernel, s.Reason}
		if isFeature {
			k[1] = ""
		}
		g := byKey[k]
		if g == nil {
			g = &skipGroup{kernel: k[0], reason: k[1], sets: map[string]bool{}}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.n++
		if isFeature {
			g.need, g.sets[missing] = appendNew(g.need, strings.Split(missing, ",")...), true
		}
	}
	out := make([]string, len(groups))
	for i, g := range groups {
		out[i] = g.String()
	}
	return out
}

// String formats the group's summary line.
func (g *skipGroup) String() string {
	if g.reason != "" {
		return fmt.Sprintf("%s: %s: %s", g.kernel, plural(g.n, "variant"), g.reason)
	}
	need := strings.Join(g.need, ", ")
	if len(g.sets) > 1 {
		need = "one or more of " + need
	}
	return fmt.Sprintf("%s: %s need %s: skipped", g.kernel, plural(g.n, "variant"), need)
}

// appendNew appends the values of vs not in list.
func appendNew(list []string, vs ...string) []string {
	for _, v := range vs {
		found := false
		for _, have := range list {
			found = found || have == v
		}
		if !found {
			list = append(list, v)
		}
	}
	return list
}

// plural formats "1 variant" or "20 variants".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// writeWinnerTable writes the compact table of a report's groups.
func writeWinnerTable(w io.Writer, rep *reports.Report) {
	if len(rep.Groups) == 0 {
		return
	}
	groups := append([]*reports.Group(nil), rep.Groups...)
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].Model.ID() < groups[j].Model.ID() })
	fmt.Fprintln(w, "\nwinners (knobs that matter; speed-up against the fastest reference, 95% interval):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  group\twinner\tvs reference")
	for _, g := range groups {
		fmt.Fprintf(tw, "  %s\t%s\n", groupKey(g), winnerCells(g, rep.Options))
	}
	tw.Flush()
}

// groupKey names a group as the sweep does: "kernel" or "kernel/size=N".
func groupKey(g *reports.Group) string {
	if g.Size == 0 {
		return g.Kernel
	}
	return fmt.Sprintf("%s/size=%d", g.Kernel, g.Size)
}

// winnerCells returns a group's winner and speed-up cells.
func winnerCells(g *reports.Group, opt reports.Options) string {
	if g.Decision.Winner == "" {
		return "no winner\t"
	}
	short := reports.ShortName([]*reports.Group{g}, g.Decision.Winner, opt)
	s, ok := reports.GroupSpeedup(g)
	if !ok {
		return short + "\t—"
	}
	return short + "\t" + s.String(opt.Alpha) + " vs " + s.RefLabel()
}
