package harness

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/harness/resultfile"
	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/perfcounters"
)

// EstCoreCyclesUnit is the unit of estimated core cycles per op (TSC
// ticks times the core/TSC ratio of a dependent-add chain around the
// sample): an estimate, kept apart from PMU cycles.
const EstCoreCyclesUnit = resultfile.EstCoreCyclesUnit

// commentPrefix starts the harness's own lines in a result file; benchfmt
// readers (and benchstat) ignore them.
const commentPrefix = resultfile.CommentPrefix

// A resultWriter appends samples in the Go benchmark format.
type resultWriter struct {
	w       io.Writer
	bw      *benchfmt.Writer
	header  []benchfmt.Config
	units   map[string]bool
	segment string // the segment line, written before anything else
}

// RunInfo identifies one sweep run in the file header.
type RunInfo struct {
	RunID, Date string
	TSCHz       float64
	// Rule describes the decision rule reports apply to the run's samples
	// (written as the decision-rule config); "" leaves it out.
	Rule string
	// Floor states the layout floor the run's race and rule use, as
	// written in the layout-floor config ("0.4% (calib copies: ...)");
	// "" leaves it out.
	Floor string
	// Segment numbers the writing sessions of the run: 1 for a new file,
	// one more than the file's last for each --resume. Readers use run-id
	// and segment to tell a resumed run from a copy of the same data.
	Segment int
	// Selection holds the config lines of the sweep's selection
	// (SweepSelection.Config), written with every result; nil writes
	// none (a resumed file that recorded none).
	Selection [][2]string
}

// NewRunInfo returns a fresh run identity.
func NewRunInfo(seed uint64) RunInfo {
	return RunInfo{RunID: fmt.Sprintf("%016x", seed), Date: time.Now().UTC().Format(time.RFC3339), TSCHz: TSCHz()}
}

// HostConfig returns the file-level config lines (key, value) that make a
// result file self-describing: host identity, Go and tunelab versions, and
// the run's identity. Every tool writing results (sweep, align) uses it.
func HostConfig(run RunInfo) [][2]string {
	id := HostIdentity()
	return [][2]string{
		{"goos", runtime.GOOS}, {"goarch", runtime.GOARCH}, {"pkg", ""},
		{"cpu", id.CPU}, {"cpu-vendor", id.Vendor},
		{"cpu-family", fmt.Sprintf("%#x", id.Family)}, {"cpu-model", fmt.Sprintf("%#x", id.Model)},
		{"cpu-stepping", strconv.Itoa(id.Stepping)}, {"uarch", id.Uarch}, {"dispatch-key", id.DispatchKey},
		{"features", strings.Join(id.Features, ",")}, {"feature-level", id.FeatureLevel},
		{"go", runtime.Version()}, {"tunelab", Version()}, {"run-id", run.RunID}, {"date", run.Date},
		{"tsc-hz", fmt.Sprintf("%.0f", run.TSCHz)}, {"decision-rule", run.Rule}, {LayoutFloorKey, run.Floor},
	}
}

// LayoutFloorKey is the config key of the layout floor a run used: the
// largest difference measured between byte-identical copies of one
// function at other addresses, below which a margin is no win.
const LayoutFloorKey = "layout-floor"

// IdentityKeys are the config keys HostConfig writes that must not change
// within one run-id: a result file whose run changes one of them mid-file
// is refused (reports) and cannot be resumed (sweep).
var IdentityKeys = []string{"goos", "goarch", "cpu", "cpu-vendor", "cpu-family", "cpu-model", "cpu-stepping",
	"uarch", "dispatch-key", "features", "feature-level", "go", "tunelab", "date", "tsc-hz", "decision-rule"}

// HostIdentityConfig returns the identity config (IdentityKeys) a run
// started now on this host by this tunelab would write, without the
// run-specific date and tsc-hz: what ReadResume compares a file with.
func HostIdentityConfig(rule string) [][2]string {
	var out [][2]string
	for _, kv := range HostConfig(RunInfo{Rule: rule}) {
		if slices.Contains(IdentityKeys, kv[0]) && kv[0] != "date" && kv[0] != "tsc-hz" {
			out = append(out, kv)
		}
	}
	return out
}

func newResultWriter(w io.Writer, run RunInfo) *resultWriter {
	rw := &resultWriter{w: w, bw: benchfmt.NewWriter(w), units: map[string]bool{}}
	for _, p := range HostConfig(run) {
		if p[1] == "" && (p[0] == "decision-rule" || p[0] == LayoutFloorKey) {
			continue
		}
		rw.header = append(rw.header, benchfmt.Config{Key: p[0], Value: []byte(p[1]), File: true})
	}
	for _, p := range run.Selection {
		rw.header = append(rw.header, benchfmt.Config{Key: p[0], Value: []byte(p[1]), File: true})
	}
	rw.segment = fmt.Sprintf(commentPrefix+"segment %s %d\n", run.RunID, max(run.Segment, 1))
	return rw
}

// start writes the segment line before the session's first record.
func (rw *resultWriter) start() error {
	if rw.segment == "" {
		return nil
	}
	_, err := io.WriteString(rw.w, rw.segment)
	rw.segment = ""
	return err
}

// benchName is the benchmark name (without "Benchmark") of a contender.
func benchName(k *variant.Kernel, size int, label string) string {
	if len(k.Sizes) == 0 {
		return k.Bench + "/" + label
	}
	return fmt.Sprintf("%s/%s/size=%d", k.Bench, label, size)
}

// write appends one sample line of contender label in group g.
func (rw *resultWriter) write(g *Group, label string, s *Sample, events []string) error {
	res := &benchfmt.Result{Name: benchfmt.Name(benchName(g.Kernel, g.Size, label)), Iters: s.Iters}
	for _, c := range rw.header {
		if c.Key == "pkg" {
			c.Value = []byte("github.com/tunelab/tunelab/kernels/" + g.Kernel.Family)
		}
		res.Config = append(res.Config, c)
	}
	res.Config = append(res.Config,
		benchfmt.Config{Key: "kernel", Value: []byte(g.Kernel.Name), File: true},
		benchfmt.Config{Key: "events", Value: []byte(eventsConfig(events)), File: true})
	res.Values = append(res.Values, benchfmt.Value{Value: s.NsPerOp, Unit: "ns/op"})
	if s.TSCPerOp > 0 {
		res.Values = append(res.Values, benchfmt.Value{Value: s.TSCPerOp, Unit: "tsc-cycles/op"})
		if u := unitsPerOp(g); u > 0 {
			res.Values = append(res.Values, benchfmt.Value{Value: s.TSCPerOp / u, Unit: "tsc-cycles/" + g.Kernel.Unit})
		}
	}
	if s.TSCPerOp > 0 && s.CoreRatio > 0 {
		// Estimated core cycles, never labelled plain "cycles": TSC ticks
		// scaled by the dependent-add chain's core/TSC ratio.
		res.Values = append(res.Values, benchfmt.Value{Value: s.TSCPerOp * s.CoreRatio, Unit: EstCoreCyclesUnit})
	}
	for i, e := range events {
		if i < len(s.Events) {
			res.Values = append(res.Values, benchfmt.Value{Value: s.Events[i], Unit: e + "/op"})
		}
	}
	res.Values = resultfile.DropInvalid(res.Values)
	if err := resultfile.CheckResult(res); err != nil {
		return fmt.Errorf("writing results: %s: sample not written: %w", res.Name, err)
	}
	if err := rw.start(); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	if err := rw.writeUnits(res.Values); err != nil {
		return err
	}
	if err := rw.bw.Write(res); err != nil {
		return fmt.Errorf("writing results: %w", err)
	}
	return nil
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

// writeUnits declares each unit once: lower is better, no distributional
// assumption.
func (rw *resultWriter) writeUnits(vals []benchfmt.Value) error {
	for _, v := range vals {
		if rw.units[v.Unit] {
			continue
		}
		rw.units[v.Unit] = true
		for _, kv := range [][2]string{{"better", "lower"}, {"assume", "nothing"}} {
			md := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: v.Unit, Key: kv[0]}, OrigUnit: v.Unit, Value: kv[1]}
			if err := rw.bw.Write(md); err != nil {
				return fmt.Errorf("writing results: %w", err)
			}
		}
	}
	return nil
}

// comment appends a harness line (ignored by benchfmt readers).
func (rw *resultWriter) comment(format string, a ...any) error {
	if err := rw.start(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(rw.w, commentPrefix+format+"\n", a...)
	return err
}

// sync makes what was written durable when the sink is a file.
func (rw *resultWriter) sync() error {
	if f, ok := rw.w.(interface{ Sync() error }); ok {
		return f.Sync()
	}
	return nil
}

// A Resume holds what an earlier, interrupted run wrote to its file.
type Resume struct {
	Run RunInfo
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
	Selection RunIdentity
	// identity holds the file's identity config (IdentityKeys) and the
	// line that set it.
	identity RunIdentity
}

// ReadResume reads a result file written by a sweep so that the sweep can
// append to it. It refuses, naming file:line and what was expected, a file
// that is not a tunelab result file (not a regular file, binary, empty, a
// foreign benchmark file, any line a sweep does not write: a bad value,
// a malformed line), one whose last line is cut off, one whose identity
// or selection changes mid-run or that holds several runs, and one
// measured under another identity than want (HostConfig's keys of this
// host and tunelab, e.g. a different CPU, CPU mask or tunelab version).
// Nothing is written. The file is read once, as a stream (resultfile).
func ReadResume(path string, want [][2]string) (*Resume, error) {
	rf, err := resultfile.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading resume file: %w", err)
	}
	defer rf.Close()
	r := &Resume{Samples: map[string]map[string][]float64{}, Rounds: map[string]map[string][]int64{}, Done: map[string]bool{},
		Excluded: map[string]map[string]string{}, Eliminated: map[string]map[string]string{},
		Selection: RunIdentity{}, identity: RunIdentity{}}
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
	c := rf.Comment()
	if c == nil {
		return r.addResult(rf.Result())
	}
	if err := r.comment(c); err != nil {
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
	if err := r.Selection.check(res, at, SelectionKeys); err != nil {
		return err
	}
	k := variant.LookupKernel(res.GetConfig("kernel"))
	if k == nil {
		return fmt.Errorf("%s: expected a kernel config naming a kernel of this tunelab, got %q", at, res.GetConfig("kernel"))
	}
	ns, _ := res.Value("sec/op") // benchfmt tidies ns/op to sec/op; resultfile checked it is there
	label, size, ok := parseBenchName(k, res.Name.String())
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
		r.Run.RunID, r.Run.Date = run, res.GetConfig("date")
		r.Run.TSCHz, _ = strconv.ParseFloat(res.GetConfig("tsc-hz"), 64)
		r.Run.Rule = res.GetConfig("decision-rule")
		r.Run.Floor = res.GetConfig(LayoutFloorKey)
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

// parseBenchName inverts benchName.
func parseBenchName(k *variant.Kernel, name string) (label string, size int, ok bool) {
	rest, ok := strings.CutPrefix(name, k.Bench+"/")
	if !ok {
		return "", 0, false
	}
	if len(k.Sizes) == 0 {
		return rest, 0, true
	}
	i := strings.LastIndex(rest, "/size=")
	if i < 0 {
		return "", 0, false
	}
	size, err := strconv.Atoi(rest[i+len("/size="):])
	return rest[:i], size, err == nil
}

// comment records one harness line (its fields after the prefix).
func (r *Resume) comment(fields []string) error {
	reason := func(skip int) string { return strings.Join(fields[skip:], " ") }
	switch {
	case len(fields) == 2 && fields[0] == "done":
		r.Done[fields[1]] = true
	case len(fields) >= 3 && fields[0] == "excluded":
		setReason(r.Excluded, fields[1], fields[2], reason(3))
	case len(fields) >= 3 && fields[0] == "eliminated":
		setReason(r.Eliminated, fields[1], fields[2], reason(3))
	case len(fields) == 3 && fields[0] == "segment":
		r.round = roundMark{}
		return r.segment(fields[1], fields[2])
	case len(fields) == 3 && fields[0] == "round":
		r.round = newRoundMark(max(r.Run.Segment, 1), fields[1], fields[2])
	}
	return nil
}

// segment records a segment line of run with number n.
func (r *Resume) segment(run, n string) error {
	seg, err := strconv.Atoi(n)
	if err != nil || seg < 1 {
		return fmt.Errorf("expected \"segment <run-id> <n>\" with n >= 1, got %q", "segment "+run+" "+n)
	}
	if r.Run.RunID != "" && run != r.Run.RunID {
		return fmt.Errorf("segment of run %s in a file of run %s: expected one run per resumable file", run, r.Run.RunID)
	}
	if seg <= r.Run.Segment {
		return fmt.Errorf("segment %d after segment %d: the file repeats part of itself (concatenated copy?)", seg, r.Run.Segment)
	}
	r.Run.Segment = seg
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
