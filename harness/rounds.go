package harness

import "strconv"

// A roundMark is the round a result line of a file belongs to: the
// group the last "round <group> <n>" line announced and its round id
// (roundID of the segment and n).
type roundMark struct {
	group string
	id    int64
}

// newRoundMark returns the mark of a round line's group and number n in
// segment; a malformed number marks nothing.
func newRoundMark(segment int, group, n string) roundMark {
	k, err := strconv.Atoi(n)
	if err != nil || k < 1 {
		return roundMark{}
	}
	return roundMark{group: group, id: roundID(segment, k)}
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
