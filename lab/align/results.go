package align

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/perf/benchfmt"

	"github.com/tunelab/tunelab/harness/resultfile"
)

// commentPrefix starts tunelab's own lines in a result file, as in the
// sweep's files; benchfmt readers ignore them.
const commentPrefix = resultfile.CommentPrefix

// WriteResults writes every sample of m in the Go benchmark format: the
// host config lines (pkg filled in), kernel, events and align-entry, then
// one line per sample named <Bench>/<variant>[/size=N] with ns/op,
// tsc-cycles/op, tsc-cycles/<unit> and <event>/op values. Comment lines
// record each arm's achieved placement and exclusions. Values and samples
// the result-file readers would refuse (resultfile.CheckResult: a NaN or
// zero count, a zero time) are left out, so that every line written is
// read.
func WriteResults(w io.Writer, host [][2]string, m *Measurement) error {
	k := m.Set.Kernel
	cfg := resultConfig(host, m)
	bw := benchfmt.NewWriter(w)
	if err := writeUnitMetadata(bw, m); err != nil {
		return err
	}
	if err := writePlacements(w, m); err != nil {
		return err
	}
	for i, arm := range m.Set.Arms {
		name := k.Bench + "/" + arm.Variant.Name
		if len(k.Sizes) > 0 {
			name += "/size=" + strconv.Itoa(m.Size)
		}
		s := m.Samples[i]
		for j := range s.Ns {
			res := &benchfmt.Result{Config: cfg, Name: benchfmt.Name(name), Iters: s.Iters[j], Values: resultfile.DropInvalid(m.values(s, j))}
			if resultfile.CheckResult(res) != nil {
				continue // a sample the readers would skip (see resultfile)
			}
			if err := bw.Write(res); err != nil {
				return fmt.Errorf("writing align results: %w", err)
			}
		}
	}
	return nil
}

// resultConfig returns the file config of m's results.
func resultConfig(host [][2]string, m *Measurement) []benchfmt.Config {
	var cfg []benchfmt.Config
	add := func(k, v string) { cfg = append(cfg, benchfmt.Config{Key: k, Value: []byte(v), File: true}) }
	for _, kv := range host {
		if kv[0] == "pkg" {
			kv[1] = "github.com/tunelab/tunelab/kernels/" + m.Set.Kernel.Family
		}
		add(kv[0], kv[1])
	}
	events := "none"
	if len(m.Events) > 0 {
		events = strings.Join(m.Events, ",")
	}
	add("kernel", m.Set.Kernel.Name)
	add("events", events)
	add("align-entry", m.Entry)
	return cfg
}

// values returns the values of sample j.
func (m *Measurement) values(s Samples, j int) []benchfmt.Value {
	k := m.Set.Kernel
	vals := []benchfmt.Value{{Value: s.Ns[j], Unit: "ns/op"}, {Value: s.TSC[j], Unit: "tsc-cycles/op"}}
	if k.Unit != "" && k.UnitsPerOp != nil {
		if u := k.UnitsPerOp(m.Size); u > 0 {
			vals = append(vals, benchfmt.Value{Value: s.TSC[j] / u, Unit: "tsc-cycles/" + k.Unit})
		}
	}
	if j < len(s.Events) {
		for e, c := range s.Events[j] {
			vals = append(vals, benchfmt.Value{Value: c, Unit: m.Events[e] + "/op"})
		}
	}
	return vals
}

// writeUnitMetadata declares every unit lower-is-better with no
// distributional assumption.
func writeUnitMetadata(bw *benchfmt.Writer, m *Measurement) error {
	units := []string{"ns/op", "tsc-cycles/op"}
	if k := m.Set.Kernel; k.Unit != "" && k.UnitsPerOp != nil {
		units = append(units, "tsc-cycles/"+k.Unit)
	}
	for _, e := range m.Events {
		units = append(units, e+"/op")
	}
	for _, u := range units {
		for _, kv := range [][2]string{{"better", "lower"}, {"assume", "nothing"}} {
			md := &benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: kv[0]}, OrigUnit: u, Value: kv[1]}
			if err := bw.Write(md); err != nil {
				return fmt.Errorf("writing align results: %w", err)
			}
		}
	}
	return nil
}

// writePlacements writes one comment line per arm with its placement or
// why it was excluded.
func writePlacements(w io.Writer, m *Measurement) error {
	for i, a := range m.Set.Arms {
		line := fmt.Sprintf("%salign-placement %s requested=%s head=%#x head%%64=%d body=%d lines-crossed=%d",
			commentPrefix, a.Variant.Name, a.Align, a.Place.Head, a.Place.Offset, a.Place.Size, a.Place.LinesCrossed)
		if a.Place.Err != "" {
			line = fmt.Sprintf("%salign-placement %s requested=%s unknown: %s", commentPrefix, a.Variant.Name, a.Align, a.Place.Err)
		}
		if m.Excluded[i] != "" {
			line += fmt.Sprintf("\n%salign-excluded %s %s", commentPrefix, a.Variant.Name, m.Excluded[i])
		}
		if _, err := fmt.Fprintln(w, line); err != nil {
			return fmt.Errorf("writing align results: %w", err)
		}
	}
	return nil
}

// WriteFileAtomic writes a file by calling write on a temporary file in
// the same directory, syncing it and renaming it to path, so a reader
// never sees a partial file. The directory is created if needed.
func WriteFileAtomic(path string, write func(io.Writer) error) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("creating directory for %s: %w", path, err)
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("creating temporary file for %s: %w", path, err)
	}
	defer os.Remove(f.Name()) // no-op after a successful rename
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("syncing %s: %w", f.Name(), err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", f.Name(), err)
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return fmt.Errorf("setting mode of %s: %w", f.Name(), err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("renaming %s to %s: %w", f.Name(), path, err)
	}
	return nil
}
