package reports

import (
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/harness"
	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/internal/stats"
)

// A roundMark is the round a sweep's "round <group> <n>" line announced
// for the results after it: group is "kernel" or "kernel/size=N".
type roundMark struct {
	group, id string
}

// newRoundMark returns the mark of a round line m in the segment with
// key marker ("run-id#segment"); a round outside a marked segment, or
// malformed, marks nothing.
func newRoundMark(marker string, m *resultfile.Mark) roundMark {
	if marker == "" || m.Err != nil {
		return roundMark{}
	}
	return roundMark{group: m.Group, id: marker + "#" + strconv.Itoa(m.N)}
}

// key returns the round of a result of kernel at size, "" unless the
// mark announced that group.
func (m roundMark) key(kernel string, size int) string {
	if m.group == "" {
		return ""
	}
	if m.group == kernel || m.group == resultfile.GroupKey(kernel, size) {
		return m.id
	}
	return ""
}

// layoutFloor parses a layout-floor config value ("0.8% (...)"), 0 if
// malformed.
func layoutFloor(v string) float64 {
	f := strings.Fields(v)
	if len(f) == 0 {
		return 0
	}
	x, err := strconv.ParseFloat(strings.TrimSuffix(f[0], "%"), 64)
	if err != nil || x < 0 || x > 100 {
		return 0
	}
	return x / 100
}

// noteFloor records a run's layout-floor config on the model: the largest
// floor stands, with the note that set it.
func (m *Model) noteFloor(note string, floor float64) {
	if m.LayoutFloorNote == "" || floor > m.LayoutFloor {
		m.LayoutFloor, m.LayoutFloorNote = floor, note
	}
}

// DecideArms applies the winner rule to the two arms of one raced group,
// as Analyze applies it to the file the race wrote, on a model with the
// given layout floor: it returns the index of the arm the rule names the
// winner, or -1 for a tie or no winner, and the decision. The arms stand
// as plain candidates named "arm=a" and "arm=b" whatever they run, so
// that only their samples, rounds and the race's eliminations decide.
func DecideArms(arms []*harness.Arm, opt Options, floor float64) (int, Decision) {
	m := &Model{Key: "selftest", Uarch: "selftest", LayoutFloor: floor}
	set := &Set{Models: []*Model{m}}
	names := []string{"arm=a", "arm=b"}
	for i, a := range arms[:2] {
		rounds := make([]string, len(a.Values))
		for k := range rounds {
			if len(a.Rounds) == len(a.Values) {
				rounds[k] = strconv.FormatInt(a.Rounds[k], 10)
			} else {
				rounds[k] = strconv.Itoa(k)
			}
		}
		set.Points = append(set.Points, &Point{Model: m, Kernel: "selftest", Variant: names[i], NS: a.Values, Rounds: rounds,
			Eliminated: a.Eliminated, Excluded: a.Excluded})
	}
	g := buildGroups(set)[0]
	g.Floor = floor
	g.Decision = decide(g, opt, stats.MinSamples())
	d := g.Decision
	if d.Kind != Significant && d.Kind != Only {
		return -1, d
	}
	if d.Winner == names[0] {
		return 0, d
	}
	return 1, d
}
