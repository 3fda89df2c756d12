package harness

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// A roundMark is the round a result line of a file belongs to: the
// group the last "round" line announced and its round id.
type roundMark struct {
	group string
	id    int64
}

// lineRounds maps each line of a result file after a "round <group> <n>"
// line (until the next round or segment line) to that round, numbered
// within the segment the way the sweep numbers them (roundID). Results of
// files written before rounds were recorded map to nothing.
func lineRounds(data []byte) map[int]roundMark {
	out := map[int]roundMark{}
	segment, cur := 1, roundMark{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line, ok := strings.CutPrefix(sc.Text(), commentPrefix)
		if !ok {
			if cur.group != "" {
				out[n] = cur
			}
			continue
		}
		f := strings.Fields(line)
		switch {
		case len(f) == 3 && f[0] == "segment":
			segment, _ = strconv.Atoi(f[2])
			cur = roundMark{}
		case len(f) == 3 && f[0] == "round":
			if k, err := strconv.Atoi(f[2]); err == nil && k > 0 {
				cur = roundMark{group: f[1], id: roundID(max(segment, 1), k)}
			}
		}
	}
	return out
}

// roundOf returns the round of the result at line in group, or a
// negative id of its own (paired with nothing) when the file did not
// record one.
func roundOf(rounds map[int]roundMark, group string, line int) int64 {
	if m, ok := rounds[line]; ok && m.group == group {
		return m.id
	}
	return -int64(line)
}
