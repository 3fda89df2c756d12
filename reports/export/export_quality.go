package export

import (
	"fmt"
	"strings"

	"github.com/tunelab/tunelab/reports"
)

// warnQuality notes, for an entry of kernel on m with classes cs, the
// groups its decisions rest on that their sweep marked busy or short.
func (r report) warnQuality(t *Table, m *reports.Model, kernel string, cs []reports.Class) {
	notes := r.QualityNotes(m, kernel, cs)
	if len(notes) == 0 {
		return
	}
	more := ""
	if len(notes) > 3 {
		more = fmt.Sprintf("; and %d more", len(notes)-3)
		notes = notes[:3]
	}
	t.Notes = append(t.Notes, fmt.Sprintf("warning: the entry for %s on %s (%s) rests on measurements the sweep marked busy or short: %s%s",
		kernel, m.Key, m.Label(), strings.Join(notes, "; "), more))
}
