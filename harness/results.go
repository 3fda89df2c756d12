package harness

import (
	"fmt"
	"io"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/internal/asmmap"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/perfcounters"
)

// NewRun returns a fresh run identity: run-id from seed, the date now,
// the TSC frequency and the variant set.
func NewRun(seed uint64) resultfile.Run {
	return resultfile.Run{RunID: fmt.Sprintf("%016x", seed), Date: time.Now().UTC().Format(time.RFC3339), TSCHz: TSCHz(),
		VariantSet: VariantSet()}
}

// VariantSet returns the fingerprint of the registered variants
// (resultfile.VariantSetFingerprint of every kernel's variant names).
func VariantSet() string {
	var names []string
	for _, k := range variant.Kernels() {
		for _, v := range variant.Variants(k.Name) {
			names = append(names, k.Name+" "+v.Name)
		}
	}
	return resultfile.VariantSetFingerprint(names)
}

// newResultWriter returns the writer of a sweep's results: the host and
// run config, the selection, and the session's segment line first.
func newResultWriter(w io.Writer, run resultfile.Run) *resultfile.Writer {
	rw := resultfile.NewWriter(w, resultfile.HostConfig(run))
	rw.StartSegment(run.RunID, max(run.Segment, 1))
	return rw
}

// writeSample appends one sample line of contender label in group g,
// after the contender's variant line if the segment has none yet.
func writeSample(rw *resultfile.Writer, g *Group, label string, s *Sample, events []string) error {
	if c := g.contender(label); c != nil {
		if err := rw.Variant(variantInfo(g.Kernel, *c)); err != nil {
			return err
		}
	}
	return rw.Write(resultfile.Sample{Name: resultfile.BenchName(g.Kernel.Bench, label, sizeOf(g.Kernel, g.Size)),
		Config: [][2]string{{"pkg", "github.com/tunelab/tunelab/kernels/" + g.Kernel.Family},
			{"kernel", g.Kernel.Name}, {"events", eventsConfig(events)}},
		Iters: s.Iters, Values: sampleValues(g, s, events)})
}

// variantInfo is what a result file records of contender c of kernel k
// besides its samples: the decisions reports take use it, not the
// binary that reads the file.
func variantInfo(k *variant.Kernel, c Contender) resultfile.VariantInfo {
	v := c.Variant
	return resultfile.VariantInfo{Kernel: k.Name, Label: c.Label, Features: v.Features, CodeBytes: CodeBytes(v),
		External: v.External, OffsetSweep: v.OffsetSweep, Operation: k.Operation}
}

// CodeBytes is the size of v's generated function in this binary, from
// its line table without the padding after it (asmmap.CodeSize: the one
// code-size measure the tie rule uses, the same in every binary); a
// variant without a function there (Go code, synthetic test variants)
// has its registered CodeBytes.
func CodeBytes(v *variant.Variant) int {
	if v.Symbol == "" {
		return v.CodeBytes
	}
	n, err := asmmap.CodeSize(v.Symbol)
	if err != nil {
		return v.CodeBytes
	}
	return n
}

// sampleValues returns a sample's values: ns/op, then TSC ticks per op
// and per unit, estimated core cycles and the events' counts per op.
func sampleValues(g *Group, s *Sample, events []string) []benchfmt.Value {
	vals := []benchfmt.Value{{Value: s.NsPerOp, Unit: "ns/op"}}
	if s.TSCPerOp > 0 {
		vals = append(vals, benchfmt.Value{Value: s.TSCPerOp, Unit: "tsc-cycles/op"})
		if u := unitsPerOp(g); u > 0 {
			vals = append(vals, benchfmt.Value{Value: s.TSCPerOp / u, Unit: "tsc-cycles/" + g.Kernel.Unit})
		}
	}
	if s.TSCPerOp > 0 && s.CoreRatio > 0 {
		// Estimated core cycles, never labelled plain "cycles": TSC ticks
		// scaled by the dependent-add chain's core/TSC ratio.
		vals = append(vals, benchfmt.Value{Value: s.TSCPerOp * s.CoreRatio, Unit: resultfile.EstCoreCyclesUnit})
	}
	for i, e := range events {
		if i < len(s.Events) {
			vals = append(vals, benchfmt.Value{Value: s.Events[i], Unit: e + "/op"})
		}
	}
	return vals
}

// sizeOf returns size for a kernel measured at sizes, 0 for one without.
func sizeOf(k *variant.Kernel, size int) int {
	if len(k.Sizes) == 0 {
		return 0
	}
	return size
}

func eventsConfig(events []string) string {
	if len(events) == 0 {
		return "none"
	}
	return strings.Join(events, ",")
}

func unitsPerOp(g *Group) float64 {
	if g.Kernel.Unit == "" || g.Kernel.UnitsPerOp == nil {
		return 0
	}
	return g.Kernel.UnitsPerOp(g.Size)
}

// A Resume holds what an earlier, interrupted run wrote to its file.
type Resume struct {
	Run resultfile.Run
	// Samples holds ns/op values per group key and contender label, and
	// Rounds the round of each (see Arm.Rounds; a negative id of its own
	// where the file recorded none).
	Samples map[string]map[string][]float64
	Rounds  map[string]map[string][]int64
	// round is the round the last round line announced.
	round roundMark
	// Done lists the groups that finished; Excluded and Eliminated map
	// group key and label to the reason the contender was excluded
	// (crashed, failed verification) or eliminated by the race.
	Done       map[string]bool
	Excluded   map[string]map[string]string
	Eliminated map[string]map[string]string
	// Selection is the sweep's selection as its results recorded it
	// (SelectionKeys config lines, with the line that set each); empty
	// for a file written before selections were recorded, or one
	// interrupted before its first sample.
	Selection resultfile.RunIdentity
	// identity holds the file's identity config (IdentityKeys) and the
	// line that set it.
	identity resultfile.RunIdentity
}

// ReadResume reads a result file written by a sweep so that the sweep can
// append to it. It refuses, naming file:line and what was expected, a file
// that is not a tunelab result file (not a regular file, binary, empty, a
// foreign benchmark file, any line a sweep does not write: a bad value,
// a malformed line), one whose last line is cut off, one whose identity
// or selection changes mid-run or that holds several runs, and one
// measured under another identity than want (HostConfig's keys of this
// host and tunelab, e.g. a different CPU, CPU mask or tunelab version),
// and a compressed file. Nothing is written. The file is read once, as a stream (resultfile).
func ReadResume(path string, want [][2]string) (*Resume, error) {
	if resultfile.IsCompressed(path) {
		return nil, fmt.Errorf("reading resume file: %s is compressed (gzip): a sweep appends to plain result files only; resume into the uncompressed file", path)
	}
	rf, err := resultfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading resume file: %w", err)
	}
	defer rf.Close()
	r := &Resume{Samples: map[string]map[string][]float64{}, Rounds: map[string]map[string][]int64{}, Done: map[string]bool{},
		Excluded: map[string]map[string]string{}, Eliminated: map[string]map[string]string{},
		Selection: resultfile.RunIdentity{}, identity: resultfile.RunIdentity{}}
	if err := r.read(rf); err != nil {
		return nil, err
	}
	if err := r.checkIdentity(path, want); err != nil {
		return nil, err
	}
	r.Run.Segment++
	return r, nil
}

// read takes in every record of the file; the first line a sweep would
// not have written is an error.
func (r *Resume) read(rf *resultfile.Reader) error {
	for rf.Scan() {
		if err := strict(rf); err != nil {
			return err
		}
		if err := r.record(rf); err != nil {
			return err
		}
	}
	return strict(rf)
}

// record takes in the harness line or result rf just read.
func (r *Resume) record(rf *resultfile.Reader) error {
	m := rf.Mark()
	if m == nil {
		return r.addResult(rf.Result())
	}
	if err := r.mark(m); err != nil {
		return fmt.Errorf("%s:%d: %w", rf.Name(), rf.Line(), err)
	}
	return nil
}

// strict turns what the reader refused or skipped into an error: the
// file's cut-off end first, then binary data or an I/O error, then the
// first line it skipped (with the warning's file:line).
func strict(rf *resultfile.Reader) error {
	if rf.EndsMidLine() {
		return fmt.Errorf("%s:%d: the file ends mid-line (a cut-off record); expected every line to end with a newline: refusing to append", rf.Name(), rf.Lines())
	}
	if err := rf.Err(); err != nil {
		return fmt.Errorf("%w (expected a text result file written by tunelab sweep)", err)
	}
	if w := rf.Warnings(); len(w) > 0 {
		return fmt.Errorf("%s (expected only lines written by tunelab sweep)", w[0])
	}
	return nil
}

// addResult records one result line's sample after checking its
// identity and selection.
func (r *Resume) addResult(res *benchfmt.Result) error {
	file, line := res.Pos()
	at := fmt.Sprintf("%s:%d", file, line)
	if err := r.noteIdentity(res, at); err != nil {
		return err
	}
	if err := r.Selection.CheckKeys(res, at, SelectionKeys); err != nil {
		return err
	}
	k := variant.LookupKernel(res.GetConfig("kernel"))
	if k == nil {
		return fmt.Errorf("%s: expected a kernel config naming a kernel of this tunelab, got %q", at, res.GetConfig("kernel"))
	}
	ns, _ := res.Value("sec/op") // benchfmt tidies ns/op to sec/op; resultfile checked it is there
	label, size, ok := resultfile.ParseBenchName(k.Bench, res.Name.String(), len(k.Sizes) > 0)
	if !ok {
		return fmt.Errorf("%s: expected Benchmark%s/<variant>[/size=N] with a ns/op value for kernel %s", at, k.Bench, k.Name)
	}
	key := groupKey(k, size)
	if r.Samples[key] == nil {
		r.Samples[key] = map[string][]float64{}
	}
	r.Samples[key][label] = append(r.Samples[key][label], ns*1e9)
	if r.Rounds[key] == nil {
		r.Rounds[key] = map[string][]int64{}
	}
	r.Rounds[key][label] = append(r.Rounds[key][label], r.round.of(key, line))
	return nil
}

// noteIdentity fixes the run identity from the first result and refuses a
// later result that changes it.
func (r *Resume) noteIdentity(res *benchfmt.Result, at string) error {
	run := res.GetConfig("run-id")
	if run == "" {
		return fmt.Errorf("%s: expected a run-id config line (a result file written by tunelab sweep); this looks like a foreign benchmark file", at)
	}
	if r.Run.RunID == "" {
		seg := r.Run.Segment
		r.Run = resultfile.RunOf(res)
		r.Run.Segment = seg
	} else if run != r.Run.RunID {
		return fmt.Errorf("%s: run-id %s, but the file's run is %s: expected one run per resumable file", at, run, r.Run.RunID)
	}
	return r.identity.Check(res, at)
}

// checkIdentity refuses a file measured under another identity than want.
func (r *Resume) checkIdentity(path string, want [][2]string) error {
	if r.Run.RunID == "" {
		return nil // interrupted before its first sample: nothing to mix with
	}
	for _, kv := range want {
		got, ok := r.identity[kv[0]]
		if !ok || got.Value == kv[1] {
			continue
		}
		return fmt.Errorf("%s: %s is %q there, but %q on this host/tunelab: resume on the host and binary that started the run, or start a new file with -o", got.At, kv[0], got.Value, kv[1])
	}
	return nil
}

// mark takes in one harness line: a group done, a contender excluded
// or eliminated, a segment or a round begun. A malformed segment line is
// an error; other malformed lines are ignored (a malformed round line
// ends the round before it).
func (r *Resume) mark(m *resultfile.Mark) error {
	if m.Err != nil && m.Kind == resultfile.KindSegment {
		return m.Err
	}
	switch {
	case m.Kind == resultfile.KindRound:
		r.round = newRoundMark(max(r.Run.Segment, 1), m)
	case m.Err != nil:
	case m.Kind == resultfile.KindDone:
		r.Done[m.Group] = true
	case m.Kind == resultfile.KindExcluded:
		setReason(r.Excluded, m.Group, m.Label, m.Reason)
	case m.Kind == resultfile.KindEliminated:
		setReason(r.Eliminated, m.Group, m.Label, m.Reason)
	case m.Kind == resultfile.KindSegment:
		r.round = roundMark{}
		return r.segment(m.Run, m.N)
	}
	return nil
}

// segment records a segment line of run with number n.
func (r *Resume) segment(run string, n int) error {
	if r.Run.RunID != "" && run != r.Run.RunID {
		return fmt.Errorf("segment of run %s in a file of run %s: expected one run per resumable file", run, r.Run.RunID)
	}
	if n <= r.Run.Segment {
		return fmt.Errorf("segment %d after segment %d: the file repeats part of itself (concatenated copy?)", n, r.Run.Segment)
	}
	r.Run.Segment = n
	return nil
}

func setReason(m map[string]map[string]string, group, label, why string) {
	if m[group] == nil {
		m[group] = map[string]string{}
	}
	m[group][label] = why
}

// TSCHz returns the time-stamp counter frequency (perfcounters.TSCHz).
func TSCHz() float64 {
	hz, _ := perfcounters.TSCHz()
	return hz
}
