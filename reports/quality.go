package reports

import (
	"fmt"

	"github.com/tunelab/tunelab/harness/resultfile"
)

// qualityKey keys the quality notes of a group: model and group key.
func qualityKey(m *Model, group string) string { return m.ID() + " " + group }

// noteQuality records a quality line of the current run that says its
// group was measured on a busy host or cut short by the budget.
func (fr *fileRead) noteQuality(q *resultfile.Quality) {
	st := fr.rd.runs[fr.seg.commentRun]
	if st == nil || st.model == nil || !q.Busy() && !q.Short() {
		return
	}
	what := "busy"
	switch {
	case q.Busy() && q.Short():
		what = "busy and short"
	case q.Short():
		what = "short"
	}
	set := fr.rd.set
	if set.qualities == nil {
		set.qualities = map[string][]string{}
	}
	k := qualityKey(st.model, q.Group)
	set.qualities[k] = append(set.qualities[k], fmt.Sprintf("%s: %s (%s)", fr.f.Path, what, q))
}

// QualityNotes returns the notes of the groups of kernel on m at the
// sizes of cs, each once.
func (r *Report) QualityNotes(m *Model, kernel string, cs []Class) []string {
	var out []string
	for _, c := range cs {
		for _, size := range c.Sizes {
			for _, g := range r.Groups {
				if g.Model == m && g.Kernel == kernel && g.Size == size {
					out = append(out, g.Quality...)
				}
			}
		}
	}
	return out
}
