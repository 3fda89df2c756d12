package harness

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/kernels/variant"
	"github.com/tunelab/tunelab/perfcounters"
)

// commentPrefix starts the harness's own lines in a result file; benchfmt
// readers (and benchstat) ignore them.
const commentPrefix = "# tunelab: "

// A resultWriter appends samples in the Go benchmark format.
type resultWriter struct {
	w      io.Writer
	bw     *benchfmt.Writer
	header []benchfmt.Config
	units  map[string]bool
}

// RunInfo identifies one sweep run in the file header.
type RunInfo struct {
	RunID, Date string
	TSCHz       float64
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
		{"tsc-hz", fmt.Sprintf("%.0f", run.TSCHz)},
	}
}

func newResultWriter(w io.Writer, run RunInfo) *resultWriter {
	rw := &resultWriter{w: w, bw: benchfmt.NewWriter(w), units: map[string]bool{}}
	for _, p := range HostConfig(run) {
		rw.header = append(rw.header, benchfmt.Config{Key: p[0], Value: []byte(p[1]), File: true})
	}
	return rw
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
	for i, e := range events {
		if i < len(s.Events) {
			res.Values = append(res.Values, benchfmt.Value{Value: s.Events[i], Unit: e + "/op"})
		}
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
	// Samples holds ns/op values per group key and contender label.
	Samples map[string]map[string][]float64
	// Done lists the groups that finished; Excluded maps group key and
	// label to the reason the contender was excluded.
	Done     map[string]bool
	Excluded map[string]map[string]string
}

// ReadResume reads a result file written by a sweep.
func ReadResume(path string) (*Resume, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading resume file: %w", err)
	}
	defer f.Close()
	r := &Resume{Samples: map[string]map[string][]float64{}, Done: map[string]bool{}, Excluded: map[string]map[string]string{}}
	if err := r.readResults(f, path); err != nil {
		return nil, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("reading resume file: %w", err)
	}
	return r, r.readComments(f)
}

func (r *Resume) readResults(f io.Reader, path string) error {
	br := benchfmt.NewReader(f, path)
	for br.Scan() {
		res, ok := br.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		if r.Run.RunID == "" {
			r.Run.RunID, r.Run.Date = res.GetConfig("run-id"), res.GetConfig("date")
			r.Run.TSCHz, _ = strconv.ParseFloat(res.GetConfig("tsc-hz"), 64)
		}
		k := variant.LookupKernel(res.GetConfig("kernel"))
		ns, ok := res.Value("sec/op") // benchfmt tidies ns/op to sec/op
		if k == nil || !ok {
			continue
		}
		label, size, ok := parseBenchName(k, res.Name.String())
		if !ok {
			continue
		}
		key := groupKey(k, size)
		if r.Samples[key] == nil {
			r.Samples[key] = map[string][]float64{}
		}
		r.Samples[key][label] = append(r.Samples[key][label], ns*1e9)
	}
	return br.Err()
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

func (r *Resume) readComments(f io.Reader) error {
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), commentPrefix)
		if !ok {
			continue
		}
		fields := strings.SplitN(line, " ", 4)
		switch {
		case len(fields) == 2 && fields[0] == "done":
			r.Done[fields[1]] = true
		case len(fields) >= 3 && fields[0] == "excluded":
			if r.Excluded[fields[1]] == nil {
				r.Excluded[fields[1]] = map[string]string{}
			}
			r.Excluded[fields[1]][fields[2]] = strings.Join(fields[3:], " ")
		}
	}
	return sc.Err()
}

// TSCHz returns the time-stamp counter frequency (perfcounters.TSCHz).
func TSCHz() float64 {
	hz, _ := perfcounters.TSCHz()
	return hz
}
