package harness

import "github.com/tunelab/tunelab/harness/resultfile"

// A roundMark is the round a result line of a file belongs to: the
// group the last "round <group> <n>" line announced and its round id
// (roundID of the segment and n).
type roundMark struct {
	group string
	id    int64
}

// newRoundMark returns the mark of a round line m in segment; a
// malformed line marks nothing.
func newRoundMark(segment int, m *resultfile.Mark) roundMark {
	if m.Err != nil {
		return roundMark{}
	}
	return roundMark{group: m.Group, id: roundID(segment, m.N)}
}

// of returns the round of a result of group at line: the mark's when it
// announced that group, else a negative id of the result's own (paired
// with nothing), as for files written before rounds were recorded.
func (m roundMark) of(group string, line int) int64 {
	if m.group != "" && m.group == group {
		return m.id
	}
	return -int64(line)
}
