package reports

import (
	"strconv"
	"strings"

	"github.com/tunelab/tunelab/harness"
)

// A roundMark is the round a sweep's "round <group> <n>" line announced
// for the results after it: group is "kernel" or "kernel/size=N".
type roundMark struct {
	group, id string
}

// newRoundMark returns the mark of a round line's fields in the segment
// with key marker ("run-id#segment"); a round outside a marked segment,
// or malformed, marks nothing.
func newRoundMark(marker string, fields []string) roundMark {
	if marker == "" || len(fields) != 3 {
		return roundMark{}
	}
	if n, err := strconv.Atoi(fields[2]); err != nil || n < 1 {
		return roundMark{}
	}
	return roundMark{group: fields[1], id: marker + "#" + fields[2]}
}

// key returns the round of a result of kernel at size, "" unless the
// mark announced that group.
func (m roundMark) key(kernel string, size int) string {
	if m.group == "" {
		return ""
	}
	if m.group == kernel || m.group == kernel+"/size="+strconv.Itoa(size) {
		return m.id
	}
	return ""
}

// layoutFloor parses a result's layout-floor config ("0.8%"), 0 if
// absent or malformed.
func layoutFloor(res interface{ GetConfig(string) string }) float64 {
	v := strings.Fields(res.GetConfig(harness.LayoutFloorKey))
	if len(v) == 0 {
		return 0
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(v[0], "%"), 64)
	if err != nil || f < 0 {
		return 0
	}
	return f / 100
}
