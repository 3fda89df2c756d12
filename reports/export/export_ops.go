package export

import (
	"fmt"
	"slices"

	"github.com/tunelab/tunelab/kernels/cpu"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/reports"
)

// knobKernels maps a whole-operation composition knob to the kernels whose
// dispatch it sets: the Keccak way count is the many-stream SHAKE
// kernels' choice.
var knobKernels = map[string][]string{"ways": {"shake128.many", "shake256.many"}}

// DecideByOperation lets the whole-operation kernel op (e.g.
// "mlkem768.keygen", whose variants are compositions such as
// "ways=4/ntt=avx2") decide the table's entries of the kernels its knobs
// set: for every CPU model where the rule names a winner of op (at its
// largest measured size), the entries of those kernels for that model
// and feature set select the winner's knob value for every size, with
// op's evidence. It returns one note per changed entry.
func DecideByOperation(t *Table, r *reports.Report, op string) ([]string, error) {
	var notes []string
	found := false
	for _, sc := range r.Classes {
		if sc.Kernel != op || len(sc.Classes) == 0 || sc.Model.Unknown {
			continue
		}
		found = true
		winner := sc.Classes[len(sc.Classes)-1].Variant
		features, _ := cpu.CanonicalFeatures(sc.Model.Features)
		for _, kn := range variant.Knobs(winner) {
			for _, kernel := range knobKernels[kn.Key] {
				e := t.entryFor(sc.Model, kernel, features)
				e.Choices = []Choice{{MaxSize: 0, Variant: kn.Key + "=" + kn.Value}}
				e.Evidence = report{r}.evidence(sc)
				notes = append(notes, fmt.Sprintf("%s on %s: %s=%s, decided by %s (winner %s)", kernel, sc.Model.Label(), kn.Key, kn.Value, op, winner))
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("export --by-operation %s: no winner of %s in the result files", op, op)
	}
	t.sortEntries()
	return notes, nil
}

// entryFor returns t's entry of kernel for model m measured with
// features, adding an empty one if there is none.
func (t *Table) entryFor(m *reports.Model, kernel string, features []string) *Entry {
	for i := range t.Entries {
		e := &t.Entries[i]
		if e.Kernel == kernel && e.CPU == (CPU{m.Vendor, m.Family, m.Model}) && slices.Equal(e.Features, features) {
			return e
		}
	}
	t.Entries = append(t.Entries, Entry{CPU: CPU{m.Vendor, m.Family, m.Model}, Uarch: m.Uarch, Kernel: kernel, Features: features})
	return &t.Entries[len(t.Entries)-1]
}
